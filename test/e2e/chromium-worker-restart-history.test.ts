import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RELAY_REPLAY } from '../../src/shared/port-client';
import { launchChromium, openPanel } from './support/chromium';
import { useExtensionBrowser } from './support/extension-session';
import { pageDone, panelCounts, readSteady, startSteadySite, waitForCounts, type SteadySite } from './support/steady-stream';

/** The scenario: 300 events, one every 25 ms, each its own tap batch (more than the relay's replay window). */
const EVENTS = 300;
const RATE = 40;

/**
 * The extension's service worker as the browser lists it, seen through target discovery only:
 * an attached debugger (as puppeteer attaches to a worker it reports) keeps a worker from ever
 * stopping on its own, so the idle case must not attach.
 */
async function watchWorker(browser: Browser) {
  const cdp: CDPSession = await browser.target().createCDPSession();
  const live = new Set<string>();
  const gone: (() => void)[] = [];
  cdp.on('Target.targetCreated', ({ targetInfo }) => {
    if (targetInfo.type === 'service_worker' && targetInfo.url.startsWith('chrome-extension://')) live.add(targetInfo.targetId);
  });
  cdp.on('Target.targetDestroyed', ({ targetId }) => {
    if (live.delete(targetId)) for (const done of gone.splice(0)) done();
  });
  await cdp.send('Target.setDiscoverTargets', { discover: true });
  return {
    /** Resolves when a running extension worker stops (the promise is made before the stop is caused). */
    stopped: () => new Promise<void>((done) => gone.push(done)),
    running: () => live.size,
    close: () => cdp.detach(),
  };
}

async function capture300(page: Page, session: string) {
  const first = await openPanel(page);
  await page.goto(`${steady.origin}/`);
  await readSteady(page, { events: EVENTS, rate: RATE, session });
  expect(await pageDone(page)).toBe(EVENTS);
  const shown = await waitForCounts(first.panel, `(c) => c.events >= ${EVENTS}`);
  expect(shown).toEqual({ events: EVENTS, dropped: 0 });
  return first;
}

let steady: SteadySite;

// Issue 21 (1): a tab's captured history survives the MV3 worker's stop. Reopening DevTools after
// the restart shows every session, and nothing is counted as dropped when no cap dropped anything.
describe('Chromium: the tab history through a service worker restart', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  useExtensionBrowser('chrome', launchChromium, (_site, b) => void (chromium = b));
  beforeAll(async () => void (steady = await startSteadySite()));
  afterAll(async () => steady?.close());

  it(`keeps all ${EVENTS} events (more than ${MAX_RELAY_REPLAY} batches) when the worker is stopped over CDP`, async () => {
    const page = await chromium.browser.newPage();
    const first = await capture300(page, 'stopped-over-cdp');
    const worker = await watchWorker(chromium.browser);
    const cdp = await page.createCDPSession();
    await cdp.send('ServiceWorker.enable');
    const stopped = worker.stopped();
    await cdp.send('ServiceWorker.stopAllWorkers');
    await stopped;
    await first.devtools.close();

    const { panel } = await openPanel(page);
    const reopened = await waitForCounts(panel, `(c) => c.events + c.dropped >= ${EVENTS}`, 30_000).catch(() => panelCounts(panel));
    console.log(`[worker restart, CDP] sent ${EVENTS} one by one; reopened panel shows ${reopened.events}, counted as dropped ${reopened.dropped}`);
    expect(reopened).toEqual({ events: EVENTS, dropped: 0 });
    expect(await panel.$eval('[data-testid="session-row"]', (r) => (r as HTMLElement).dataset.key)).toBe('stopped-over-cdp');
    await worker.close();
    await page.close();
  });

  it('keeps them when Chrome stops the idle worker by itself', async () => {
    const page = await chromium.browser.newPage();
    const worker = await watchWorker(chromium.browser);
    const first = await capture300(page, 'idle-stop');
    expect(worker.running()).toBeGreaterThan(0);
    // Nothing more happens in the page: Chrome stops the worker once it has been idle long enough.
    await worker.stopped();
    await first.devtools.close();

    const { panel } = await openPanel(page);
    const reopened = await waitForCounts(panel, `(c) => c.events + c.dropped >= ${EVENTS}`, 30_000).catch(() => panelCounts(panel));
    console.log(`[worker restart, idle] reopened panel shows ${reopened.events}, counted as dropped ${reopened.dropped}`);
    expect(reopened).toEqual({ events: EVENTS, dropped: 0 });
    await worker.close();
    await page.close();
  }, 240_000);
});
