import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS } from '../../../demo/launch/chromium';

/** scripts/setup.sh lets CHROME_PATH name another Chromium-based browser. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium with the unpacked extension. Headless works here: puppeteer-core 24's
 * `headless: true` is the new headless mode (`--headless=new`), which loads extensions (through
 * `enableExtensions`, i.e. CDP `Extensions.loadUnpacked` over the pipe) and runs DevTools
 * frontends with their extension panels, so no Xvfb is needed. Measured with Chromium 156.
 */
export async function launchChromium(
  extensionDir: string | null,
  options: { allowExtensions?: boolean; /** Added to CHROMIUM_FLAGS (e.g. a net log). */ args?: string[] } = {},
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'msl-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    enableExtensions: extensionDir ? [extensionDir] : (options.allowExtensions ?? false),
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, ...(options.args ?? [])],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens DevTools on `page`, selects the "MCP Streams" panel and returns the panel's frame.
 * The DevTools frontend exposes no public API to pick a panel; its own InspectorView module
 * does, and the extension panel's tab is found by its title.
 */
// Text, not a function: the test runner would rewrite a dynamic import() in test code.
const SHOW_PANEL = `(async () => {
  const UI = await import('./ui/legacy/legacy.js');
  const view = UI.InspectorView.InspectorView.instance();
  const tab = view.tabbedPane.tabs.find((t) => t.title === 'MCP Streams');
  if (!tab) return false;
  await view.showPanel(tab.id);
  return true;
})()`;

export async function openPanel(page: Page): Promise<{ devtools: Page; panel: Frame }> {
  const devtools = await page.openDevTools();
  // Polled like waitForFunction does (every 100 ms, bounded), but through evaluate(): the
  // frontend throws until its settings exist, and waitForFunction does not recover from that.
  for (let attempt = 0; ; attempt += 1) {
    const shown = await devtools.evaluate(SHOW_PANEL).catch(() => false);
    if (shown) break;
    if (attempt >= 300) throw new Error('the MCP Streams panel never appeared in DevTools');
    await new Promise((r) => setTimeout(r, 100));
  }
  const panel = await waitForFrame(devtools, 'src/entries/panel.html');
  await panel.waitForSelector('main', { timeout: 30_000 });
  return { devtools, panel };
}

async function waitForFrame(page: Page, urlPart: string): Promise<Frame> {
  const found = page.frames().find((f) => f.url().includes(urlPart));
  if (found) return found;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no frame ${urlPart}`)), 30_000);
    const onFrame = (frame: Frame) => {
      if (!frame.url().includes(urlPart)) return;
      clearTimeout(timer);
      page.off('framenavigated', onFrame);
      resolve(frame);
    };
    page.on('framenavigated', onFrame);
  });
}
