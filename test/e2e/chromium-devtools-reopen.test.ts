import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAB_ITEMS } from '../../src/capture/tab-buffer';
import { launchChromium, openPanel } from './support/chromium';
import { useExtensionBrowser } from './support/extension-session';
import { waitForPanel } from './support/panel-queries';
import { pageDone, readSteady, startSteadySite, waitForCounts, type SteadySite } from './support/steady-stream';

/** Events of the first page's stream: some before DevTools closes, the rest while it is closed. */
const FIRST = 3_000;
const SECOND = 500;
/** When to close DevTools: once the panel shows this many events of the first stream. */
const CLOSE_AT = 1_000;

// Issue 7 (6): closing and reopening DevTools keeps the tab's history (within the caps), and a
// navigation is a marker between sessions, not a reset.
describe('Chromium: DevTools closed and reopened, then a navigation', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let steady: SteadySite;
  useExtensionBrowser('chrome', launchChromium, (_site, b) => void (chromium = b));
  beforeAll(async () => void (steady = await startSteadySite()));
  afterAll(async () => steady?.close());

  it('shows the events from before closing and while closed, and keeps sessions across a navigation with a marker', async () => {
    expect(FIRST + SECOND).toBeLessThan(MAX_TAB_ITEMS); // everything fits the tab's history
    const page = await chromium.browser.newPage();
    const first = await openPanel(page);
    await page.goto(`${steady.origin}/`);
    await readSteady(page, { events: FIRST, rate: 500, session: 'before-close' });
    const beforeClose = await waitForCounts(first.panel, `(c) => c.events >= ${CLOSE_AT}`);
    await first.devtools.close();

    // The rest of the stream arrives while no panel is open.
    expect(await pageDone(page)).toBe(FIRST);
    const { panel } = await openPanel(page);
    const reopened = await waitForCounts(panel, `(c) => c.events >= ${FIRST}`);
    console.log(
      `[devtools reopen] sent ${FIRST}; shown before closing ${beforeClose.events}, arrived while closed ${FIRST - beforeClose.events}; ` +
        `reopened panel shows ${reopened.events}, counted as dropped ${reopened.dropped}`,
    );
    expect(reopened).toEqual({ events: FIRST, dropped: 0 });

    // A user follows a link to another page of the site; that page's MCP traffic is captured too.
    await Promise.all([page.waitForNavigation(), page.click('#next')]);
    const marker = await panel.waitForSelector(`[data-testid="navigation-marker"][data-url="${steady.origin}/other"]`, { timeout: 30_000 });
    expect(await marker!.evaluate((el) => el.textContent)).toMatch(new RegExp(`^navigated to ${steady.origin}/other at \\d\\d:\\d\\d:\\d\\d\\.\\d{3}$`));
    await readSteady(page, { events: SECOND, rate: 1_000, session: 'after-navigation' });
    expect(await pageDone(page)).toBe(SECOND);
    const after = await waitForPanel(panel, `(s) => s.sessions === 2 && s.streams.some((x) => x.events === ${SECOND})`);
    const keys = await panel.$$eval('[data-testid="session-row"]', (rows) => rows.map((r) => (r as HTMLElement).dataset.key));
    const order = await panel.$$eval('[data-testid="session-row"], [data-testid="navigation-marker"]', (rows) =>
      rows.map((r) => (r as HTMLElement).dataset.key ?? `nav ${(r as HTMLElement).dataset.url}`),
    );
    console.log(`[navigation] sessions ${keys.join(', ')}; list order ${order.join(' | ')}; dropped ${after.dropped}`);
    expect(keys).toEqual(['before-close', 'after-navigation']);
    // The earlier session is above the marker, the new one below it.
    expect(order.indexOf('before-close')).toBeLessThan(order.indexOf(`nav ${steady.origin}/other`));
    expect(order.indexOf(`nav ${steady.origin}/other`)).toBeLessThan(order.indexOf('after-navigation'));
    expect(after.dropped).toBe(0);
    // The earlier session still holds all its events.
    await panel.click('[data-testid="session-row"][data-key="before-close"]');
    const earlier = await waitForPanel(panel, `(s) => s.streams.length === 1 && s.streams[0].events !== ${SECOND}`);
    expect(earlier.streams.map((x) => x.events)).toEqual([FIRST]);
    await page.close();
  });
});
