import type { CDPSession } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAB_CHARS, MAX_TAB_ITEMS } from '../../src/capture/tab-buffer';
import { launchChromium, openPanel } from './support/chromium';
import { useExtensionBrowser } from './support/extension-session';
import { pageDone, readSteady, startSteadySite, steadyEvent, waitForCounts, type SteadySite } from './support/steady-stream';

const EVENTS = 10_000;
/** Filler per event: 10,000 events of ~620 bytes is ~6 MB, past the background's 4 MiB history. */
const PAD = 500;
/** The panel's event cap for this test, set through the settings form as a user would. */
const PANEL_CAP = 2_000;
/**
 * What one kept item may cost the worker beyond its text: the item object (five fields), the
 * string's header, its slot in the delivery's array and its share of the delivery. V8 with
 * pointer compression needs well under this for each.
 */
const ITEM_OVERHEAD_BYTES = 100;
/**
 * The background's cap in bytes: MAX_TAB_CHARS of chunk text (one byte per character: the
 * stream is ASCII, which V8 stores as one-byte strings) plus the per-item overhead for the most
 * items it may keep (MAX_TAB_ITEMS).
 */
const WORKER_CAP_BYTES = MAX_TAB_CHARS + MAX_TAB_ITEMS * ITEM_OVERHEAD_BYTES;

/** The worker's live JS heap after a full collection. */
async function heapAfterGc(worker: CDPSession): Promise<number> {
  await worker.send('HeapProfiler.collectGarbage');
  return (await worker.send('Runtime.getHeapUsage')).usedSize;
}

// Issue 7 (7): over the caps the oldest events go, the panel shows exactly how many, and the
// background's memory stays within what its cap allows.
describe('Chromium: a capture over the buffer caps', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let steady: SteadySite;
  useExtensionBrowser('chrome', launchChromium, (_site, b) => void (chromium = b));
  beforeAll(async () => void (steady = await startSteadySite()));
  afterAll(async () => steady?.close());

  it('drops the oldest events, shows sent − kept exactly, and keeps the worker under its cap × 1.2', async () => {
    const bytes = EVENTS * steadyEvent(EVENTS, 'x'.repeat(PAD)).length;
    expect(bytes).toBeGreaterThan(MAX_TAB_CHARS * 1.3); // the stream really overflows the history

    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${steady.origin}/`);
    await panel.click('[data-testid="settings-toggle"]');
    await panel.locator('[data-testid="settings-event-cap"]').fill(String(PANEL_CAP));
    await panel.click('[data-testid="settings-save"]');
    await panel.waitForSelector('[data-testid="settings"]', { hidden: true }); // saved and closed

    const target = await chromium.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
    const worker = await target.createCDPSession();
    const baseline = await heapAfterGc(worker);

    await readSteady(page, { events: EVENTS, rate: 2_500, pad: PAD, session: 'caps' });
    expect(await pageDone(page)).toBe(EVENTS);
    const shown = await waitForCounts(panel, `(c) => c.events + c.dropped >= ${EVENTS}`);
    const evicted = await panel.$eval('[data-testid="dropped-count"]', (el) => Number((el as HTMLElement).dataset.panelEvicted));
    const used = await heapAfterGc(worker);
    const growth = used - baseline;
    console.log(
      `[caps] panel: sent ${EVENTS}, kept ${shown.events} (cap ${PANEL_CAP}), shown as dropped ${shown.dropped} (evicted by the event cap ${evicted}), ` +
        `lost without a count ${EVENTS - shown.events - shown.dropped}\n` +
        `[caps] worker heap: ${(baseline / 1e6).toFixed(2)} MB before, ${(used / 1e6).toFixed(2)} MB after ${(bytes / 1e6).toFixed(1)} MB streamed; ` +
        `growth ${(growth / 1e6).toFixed(2)} MB, cap ${(WORKER_CAP_BYTES / 1e6).toFixed(2)} MB (x1.2 = ${((WORKER_CAP_BYTES * 1.2) / 1e6).toFixed(2)} MB)`,
    );
    expect(shown.events).toBeLessThanOrEqual(PANEL_CAP);
    expect(shown.events).toBeGreaterThan(0);
    expect(shown.dropped).toBe(EVENTS - shown.events);
    expect(evicted).toBe(shown.dropped); // every one of them went to the event cap, none was lost on the way
    // Within the cap; and the history really is full (the worker did not restart and forget it).
    expect(growth).toBeLessThan(WORKER_CAP_BYTES * 1.2);
    expect(growth).toBeGreaterThan(MAX_TAB_CHARS * 0.8);
    await worker.detach();
    await page.close();
  });
});
