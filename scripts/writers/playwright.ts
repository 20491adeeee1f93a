import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../demo/launch/chromium.js';
import type { RecordingSite } from './site.js';

/** Debian's Chromium, unless CHROME_PATH names another. */
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * Playwright's own HAR writer: `recordHar` on a context of Debian's Chromium, driven through
 * `executablePath` (Playwright downloads no browser here). The HAR is written when the context
 * closes, which is after the page's load event (the run is over). Playwright gives the browser
 * a fresh temporary profile itself.
 */
export async function recordWithPlaywright(site: RecordingSite, file: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS] });
  try {
    const context = await browser.newContext({ recordHar: { path: file, content: 'embed', urlFilter: /\/s\// } });
    const page = await context.newPage();
    await page.goto(site.pageUrl, { waitUntil: 'load', timeout: 60_000 });
    await context.close();
  } finally {
    await browser.close();
  }
}
