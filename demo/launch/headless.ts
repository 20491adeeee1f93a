import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'puppeteer-core';
import type { Report } from '../../src/core/index.js';
import type { Scenario } from '../scenario-catalog.js';
import { recordingReport } from './capture-files.js';
import { oneLine } from './demo-error.js';
import { selectPanel, undock } from './devtools-panel.js';
import { exportFromPanel } from './panel-exports.js';
import { readPanel, type PanelView } from './panel-view.js';
import type { Site } from './site.js';

/** How long one run may take, from the click to a settled `client-result`. */
export const RUN_DEADLINE_MS = 60_000;
/** How long the load balancer may keep exchanges open after the client settled. */
export const SETTLE_DEADLINE_MS = 10_000;

export interface HeadlessRun {
  scenario: Scenario;
  /** What the page's client believed: `client-result`'s state and text. */
  client: { state: string; text: string };
  report: Report;
  /** What the extension panel showed (read from its DOM). */
  panel: PanelView;
}

/**
 * Runs one scenario in a new tab of `browser` (Chromium with the extension): opens DevTools on
 * the MCP Streams panel first so it captures live, clicks the scenario's button, waits for the
 * page's `client-result` to settle and for the load balancer to see every exchange end, then
 * writes the panel's exports capture.har and report.json, panel.png, client.json (what the client
 * believed) and panel-view.json (what the panel showed) to `outDir`.
 */
export async function runHeadless(browser: Browser, site: Site, scenario: Scenario, outDir: string): Promise<HeadlessRun> {
  const world = site.worlds.get(scenario);
  if (!world) throw new Error(`scenario ${scenario} is not running on this site`);
  await mkdir(outDir, { recursive: true });
  const page = await browser.newPage();
  try {
    await page.goto(`${site.origin}/?scenario=${scenario}`, { waitUntil: 'load' });
    let devtools: Page | undefined;
    let panel: Frame | { error: string };
    try {
      devtools = await page.openDevTools();
      panel = await selectPanel(devtools);
      await undock(devtools);
    } catch (error) {
      panel = { error: `the MCP Streams panel did not open: ${oneLine(error)}` };
    }

    await page.click(`[data-testid="run-${scenario}"]`);
    const result = await page.waitForSelector('[data-testid="client-result"]:is([data-state="ok"], [data-state="error"])', { timeout: RUN_DEADLINE_MS });
    const client = await result!.evaluate((el) => ({ state: (el as HTMLElement).dataset.state ?? '', text: el.textContent ?? '' }));
    await within(world.balancer.log.settled(), SETTLE_DEADLINE_MS, 'the load balancer still had open exchanges');
    await writeFile(join(outDir, 'client.json'), `${JSON.stringify(client, null, 2)}\n`);
    if ('error' in panel) throw new Error(panel.error);

    // Wait until the panel shows everything the load balancer saw, then take its own exports.
    const view = await readPanel(panel, recordingReport(world.balancer.log).summary);
    await writeFile(join(outDir, 'panel-view.json'), `${JSON.stringify(view, null, 2)}\n`);
    const report = await exportFromPanel(browser, panel, outDir);
    await devtools!.screenshot({ path: join(outDir, 'panel.png') });
    return { scenario, client, report, panel: view };
  } finally {
    await page.close();
  }
}

/** `promise`, or a rejection naming `what` once `ms` have passed. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} after ${ms / 1000} s`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
