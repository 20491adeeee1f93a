import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { GECKO_ID } from '../../../manifest.config';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** Pinned through a pref so the test knows the extension's moz-extension:// origin. */
const EXTENSION_UUID = '5d3f6a2e-8c1b-4f7a-9e2d-1a2b3c4d5e6f';

interface BidiConnection {
  send(method: string, params: object): Promise<{ result: { contexts?: { context: string }[] } }>;
}

/**
 * Debian's Firefox ESR over WebDriver BiDi (no geckodriver): the extension goes in with
 * `installExtension`, and `-devtools` opens the toolbox on the first tab, so the devtools page
 * runs its network reconciliation there.
 *
 * BiDi refuses to navigate a tab to a moz-extension:// page, and DevTools panels live in the
 * parent process where BiDi cannot reach them. So the test reads the capture through the
 * extension's standalone viewer (the same panel code, fed by the background), opened as a tab
 * by privileged script: that is what `--remote-allow-system-access` is for.
 */
export async function launchFirefox(extensionDir: string): Promise<{ browser: Browser; page: Page; openViewer(): Promise<Page>; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'msl-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    args: ['-devtools', '--remote-allow-system-access'],
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }) },
  });
  await browser.installExtension(extensionDir);
  const [page] = await browser.pages();

  async function openViewer(): Promise<Page> {
    const connection = (browser as unknown as { connection: BidiConnection }).connection;
    const before = new Set(await browser.pages());
    const tree = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
    const url = `moz-extension://${EXTENSION_UUID}/src/entries/panel.html`;
    const created = new Promise<Page>((resolve) => browser.once('targetcreated', (t) => void t.page().then((p) => resolve(p!))));
    await connection.send('script.evaluate', {
      expression: `(() => {
        const win = Services.wm.getMostRecentWindow('navigator:browser');
        win.gBrowser.selectedTab = win.gBrowser.addTab(${JSON.stringify(url)}, { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() });
      })()`,
      target: { context: tree.result.contexts![0]!.context },
      awaitPromise: false,
    });
    const viewer = await created;
    if (before.has(viewer)) throw new Error('no new tab for the viewer');
    // Puppeteer keeps the tab's first URL (about:blank); wait for the viewer's document itself.
    await viewer.waitForFunction((u: string) => location.href === u && document.querySelector('main') !== null, { polling: 100, timeout: 30_000 }, url);
    return viewer;
  }

  return {
    browser,
    page: page!,
    openViewer,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
