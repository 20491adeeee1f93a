import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
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
 * by privileged script run in about:addons (BiDi in Firefox 140 ESR lists no chrome contexts).
 */
/**
 * The page's DOM as seen from puppeteer's isolated realm: `waitForFunction` builds its predicate
 * with `Function()`, which an extension page's CSP blocks in its own realm, not in a sandbox.
 * Only the DOM is shared, which is all the tests read.
 */
export const inPage = (page: Page): Frame => (page.mainFrame() as unknown as { isolatedRealm(): Frame }).isolatedRealm();

export interface FirefoxSession {
  browser: Browser;
  page: Page;
  openViewer(): Promise<Page>;
  /** A tab with a system-principal document (about:addons): its main realm sees `Services`. */
  openPrivileged(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchFirefox(extensionDir: string, options: { /** Extra Firefox prefs for this profile. */ prefs?: Record<string, unknown> } = {}): Promise<FirefoxSession> {
  const profile = mkdtempSync(join(tmpdir(), 'msl-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    args: ['-devtools', '--remote-allow-system-access'],
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }), ...options.prefs },
  });
  await browser.installExtension(extensionDir);
  const [page] = await browser.pages();

  // BiDi here (Firefox 140 ESR) lists no chrome contexts, but about:addons is a system-principal
  // document in a tab.
  async function openPrivileged(): Promise<Page> {
    const connection = (browser as unknown as { connection: BidiConnection }).connection;
    const helper = await browser.newPage();
    const context = (helper.mainFrame() as unknown as { _id: string })._id;
    await connection.send('browsingContext.navigate', { context, url: 'about:addons', wait: 'complete' });
    return helper;
  }

  async function openViewer(): Promise<Page> {
    const url = `moz-extension://${EXTENSION_UUID}/src/entries/panel.html`;
    // A privileged page to open the viewer's tab from (BiDi refuses to navigate to it).
    const helper = await openPrivileged();
    const before = new Set(await browser.pages());
    const created = new Promise<Page>((resolve) => browser.once('targetcreated', (t) => void t.page().then((p) => resolve(p!))));
    await helper.evaluate((u: string) => {
      const S = (globalThis as unknown as { Services: { wm: { getMostRecentWindow(t: string): { gBrowser: { selectedTab: unknown; addTab(u: string, o: object): unknown } } }; scriptSecurityManager: { getSystemPrincipal(): unknown } } }).Services;
      const win = S.wm.getMostRecentWindow('navigator:browser');
      win.gBrowser.selectedTab = win.gBrowser.addTab(u, { triggeringPrincipal: S.scriptSecurityManager.getSystemPrincipal() });
    }, url);
    const viewer = await created;
    if (before.has(viewer)) throw new Error('no new tab for the viewer');
    await helper.close();
    // Puppeteer keeps the tab's first URL (about:blank); wait for the viewer's document itself.
    await inPage(viewer).waitForFunction((u: string) => location.href === u && document.querySelector('main') !== null, { polling: 100, timeout: 30_000 }, url);
    return viewer;
  }

  return {
    browser,
    page: page!,
    openViewer,
    openPrivileged,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
