import type { Browser } from 'puppeteer-core';
import { SCENARIOS } from '../scenario-catalog.js';
import type { DemoOptions } from './args.js';
import { findBrowser } from './browsers.js';
import { ensureExtension, ensurePage } from './builds.js';
import { launchChromium } from './chromium.js';
import { DemoError, oneLine } from './demo-error.js';
import { selectPanel } from './devtools-panel.js';
import { ensureDisplay } from './display.js';
import { launchFirefox } from './firefox.js';
import { guide } from './guide.js';
import type { Lifecycle } from './lifecycle.js';
import { startSite } from './site.js';

/** How long to wait for the auto-opened DevTools window before telling the user to open it. */
const DEVTOOLS_DEADLINE_MS = 20_000;

/**
 * `npm run demo` (and `-- --firefox`): every scenario on one site, a headed browser with the
 * extension and DevTools on the demo page, and a guide on stdout. Runs until Ctrl-C or until
 * the browser is closed; the caller's lifecycle then cleans up.
 */
export async function interactiveDemo(options: DemoOptions, lifecycle: Lifecycle, log: (line: string) => void): Promise<number> {
  const firefox = options.browser === 'firefox';
  const extensionDir = await ensureExtension(firefox ? 'firefox' : 'chrome', lifecycle, log);
  await ensurePage(log);
  const executablePath = await findBrowser(options.browser, lifecycle, log);
  const site = await startSite({ port: options.port, scenarios: SCENARIOS });
  lifecycle.defer(() => site.close());
  const display = await ensureDisplay(lifecycle, log);
  const start = options.scenarios[0];
  const url = `${site.origin}/${start ? `?scenario=${start}&autorun=1` : ''}`;

  let browser: Browser;
  let panelNote: string | undefined;
  if (firefox) {
    browser = await launchFirefox({ executablePath, extensionDir, display }, lifecycle);
    panelNote = 'DevTools is open: select its "MCP Streams" tab (under » when the tab row is full).';
  } else {
    browser = await launchChromium({ executablePath, extensionDir, headless: false, display }, lifecycle);
    panelNote = await showChromiumPanel(browser);
  }
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.goto(url);
  } catch (error) {
    if (!browser.connected) throw new DemoError('the browser closed while the demo was starting');
    throw error;
  }
  console.log(guide(site.origin, firefox ? 'Firefox ESR' : 'Chromium', panelNote));

  const closed = new Promise<'closed'>((resolve) => browser.once('disconnected', () => resolve('closed')));
  // A signal is reported by main; only a closed browser is news here.
  if ((await Promise.race([closed, lifecycle.interrupted])) === 'closed') log('demo: the browser was closed; stopping');
  return 0;
}

/** Selects MCP Streams in the DevTools that Chromium opened for the first tab; a note when it could not. */
async function showChromiumPanel(browser: Browser): Promise<string | undefined> {
  try {
    const target = await browser.waitForTarget((t) => t.url().startsWith('devtools://devtools/bundled/devtools_app.html'), { timeout: DEVTOOLS_DEADLINE_MS });
    const devtools = await target.asPage();
    await selectPanel(devtools);
    return undefined;
  } catch (error) {
    return `Could not select the panel (${oneLine(error)}): in DevTools (F12), pick the "MCP Streams" tab.`;
  }
}
