import { afterAll, beforeAll } from 'vitest';
import { buildExtension } from './extension-build';
import { startSite, type Site } from './site';

/**
 * The set-up every real-browser capture test shares: build the extension for `target` while the
 * test site starts, launch the browser with it, and close both after the file. `ready` hands the
 * two to the test file before its first test runs.
 */
export function useExtensionBrowser<B extends { close(): Promise<void> }>(
  target: 'chrome' | 'firefox',
  launch: (extensionDir: string) => Promise<B>,
  ready: (site: Site, browser: B) => void,
): void {
  let site: Site | undefined;
  let browser: B | undefined;
  beforeAll(async () => {
    const [dir, started] = await Promise.all([buildExtension(target), startSite()]);
    site = started;
    browser = await launch(dir);
    ready(site, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
}
