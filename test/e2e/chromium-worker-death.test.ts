import type { Target } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { useExtensionBrowser } from './support/extension-session';
import { pageDone, panelCounts, readSteady, startSteadySite, waitForCounts, type SteadySite } from './support/steady-stream';

const EVENTS = 10_000;
/** 500 events/s: 20 s of stream, long enough for three worker restarts at real signals. */
const RATE = 500;
/** When to stop the worker: once the panel shows this many events. */
const STOP_AT = [2_500, 5_000, 7_500];

// Issue 7 (5): the MV3 service worker dies three times during a live capture; the panel ends with
// every event, or with a counted gap of exactly the missing number. Never a silent loss.
describe('Chromium: the service worker dies three times during a live capture', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let steady: SteadySite;
  useExtensionBrowser('chrome', launchChromium, (_site, b) => void (chromium = b));
  beforeAll(async () => void (steady = await startSteadySite()));
  afterAll(async () => steady?.close());

  it(`ends with all ${EVENTS} events or an exactly counted gap`, async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${steady.origin}/`);
    await readSteady(page, { events: EVENTS, rate: RATE, session: 'worker-death' });

    // What Chrome does to an idle MV3 worker, done on purpose (as chrome://serviceworker-internals
    // does), each time at a real signal: the panel has shown that many events.
    const cdp = await page.createCDPSession();
    await cdp.send('ServiceWorker.enable');
    const stops: number[] = [];
    for (const at of STOP_AT) {
      const seen = await waitForCounts(panel, `(c) => c.events >= ${at}`);
      // The stop is real only once the extension's worker target is gone (and the panel's
      // reconnect starts a new one).
      const alive = chromium.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'), { timeout: 10_000 });
      const destroyed = new Promise<void>((done) => {
        const onGone = (t: Target) => {
          if (t.type() !== 'service_worker') return;
          chromium.browser.off('targetdestroyed', onGone);
          done();
        };
        chromium.browser.on('targetdestroyed', onGone);
      });
      await alive;
      await cdp.send('ServiceWorker.stopAllWorkers');
      await destroyed;
      stops.push(seen.events);
    }

    const read = await pageDone(page);
    expect(read).toBe(EVENTS); // the page itself got everything: any shortfall is the capture's
    // The end of the stream is in the panel: its last event, or a loss counted for it.
    // Bounded; on a timeout the figures are still printed and the assertion below says what is missing.
    await waitForCounts(panel, `(c) => c.events + c.dropped >= ${EVENTS}`, 20_000).catch(() => undefined);
    const settled = await panelCounts(panel);
    console.log(
      `[worker death x3] stopped at panel counts ${stops.join(', ')}; sent ${EVENTS}, received ${settled.events}, ` +
        `counted as dropped ${settled.dropped}, lost without a count ${EVENTS - settled.events - settled.dropped}`,
    );
    expect(settled.events + settled.dropped).toBe(EVENTS);
    await page.close();
  });
});
