import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GECKO_ID } from '../../manifest.config';
import { MAX_RELAY_REPLAY } from '../../src/shared/port-client';
import { buildExtension } from './support/extension-build';
import { watchBackground } from './support/firefox-background';
import { inPage, launchFirefox, type FirefoxSession } from './support/firefox';
import { pageDone, panelCounts, readSteady, startSteadySite, waitForCounts, type PanelCounts, type SteadySite } from './support/steady-stream';

/** The scenario: 300 events, one every 25 ms, each its own tap batch (more than the relay's replay window). */
const EVENTS = 300;
const RATE = 40;
/** A short first session: it gives the tab a capture to be chosen by in the viewer before the long one starts. */
const WARM_UP = 5;
/** Firefox's idle timeout for event pages, in milliseconds (its default is 30 s). */
const IDLE_MS = 2_000;

const SESSIONS = { 'warm-up': WARM_UP, 'event-page': EVENTS } as const;

/** Picks the one tab the viewer offers (the test page is the only one with a capture). */
async function chooseTab(viewer: Page): Promise<Frame> {
  const frame = inPage(viewer);
  // The chooser lists the tabs the background holds a history for, or says there is none.
  await frame.waitForFunction(() => document.querySelector('[data-testid="tab-choice"], p.empty') !== null, { polling: 100, timeout: 30_000 });
  expect(await frame.evaluate(() => document.querySelectorAll('[data-testid="tab-choice"]').length)).toBe(1);
  await viewer.click('[data-testid="tab-choice"]');
  return frame;
}

/** The session keys the panel lists, in its order. */
const sessionKeys = (frame: Frame) => frame.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="session-row"]')].map((r) => r.dataset.key ?? ''));

/** Selects the session `key` and waits until its stream rows hold `events` events (or a drop is counted). */
async function showSession(frame: Frame, key: string, events: number): Promise<PanelCounts> {
  const row = `[data-testid="session-row"][data-key="${key}"]`;
  await frame.waitForFunction((r: string) => document.querySelector(r) !== null, { polling: 100, timeout: 30_000 }, row);
  await frame.evaluate((r: string) => document.querySelector<HTMLElement>(r)!.click(), row);
  await frame.waitForFunction((r: string) => document.querySelector(`${r}[aria-selected="true"]`) !== null, { polling: 100, timeout: 10_000 }, row);
  return waitForCounts(frame, `(c) => c.events + c.dropped >= ${events}`, 30_000).catch(() => panelCounts(frame));
}

// Issue 21 (1), Firefox: the MV3 background is an event page, which Firefox unloads once it has
// been idle (no extension event, no API call) for `extensions.background.idle.timeout`. A tab's
// history must come back from `storage.session` when the page starts again: the viewer opened
// after the unload shows every session, with nothing counted as dropped when no cap dropped.
describe('Firefox: the tab history through an event page unload', () => {
  let firefox: FirefoxSession;
  let steady: SteadySite;
  beforeAll(async () => {
    const [dir, site] = await Promise.all([buildExtension('firefox'), startSteadySite()]);
    steady = site;
    firefox = await launchFirefox(dir, { prefs: { 'extensions.background.idle.timeout': IDLE_MS } });
  });
  afterAll(async () => {
    await firefox?.close();
    await steady?.close();
  });

  it(`keeps both sessions, all ${EVENTS} events of the long one (more than ${MAX_RELAY_REPLAY} batches), when Firefox unloads the idle event page`, async () => {
    const background = await watchBackground(await firefox.openPrivileged(), GECKO_ID);
    const page = await firefox.browser.newPage();
    await page.goto(`${steady.origin}/`);
    await readSteady(page, { events: WARM_UP, rate: RATE, session: 'warm-up' });
    expect(await pageDone(page)).toBe(WARM_UP);

    const first = await openViewerOnTab();
    expect(await showSession(first.frame, 'warm-up', WARM_UP)).toEqual({ events: WARM_UP, dropped: 0 });
    // With the viewer attached, the tap sends each event as its own batch.
    await readSteady(page, { events: EVENTS, rate: RATE, session: 'event-page' });
    expect(await pageDone(page)).toBe(EVENTS);
    expect(await showSession(first.frame, 'event-page', EVENTS)).toEqual({ events: EVENTS, dropped: 0 });

    // The background that just delivered the last event is up; count its teardowns from here.
    const captured = await background.status();
    await first.viewer.close();
    const unloaded = await background.stoppedMoreThan(captured.stops, 60_000);
    console.log(`[event page] after the capture: ${JSON.stringify(captured)}; after the viewer closed: ${JSON.stringify(unloaded)}`);

    const again = await openViewerOnTab();
    const restarted = await background.status();
    // The reopened viewer talks to a background started after the unload.
    expect(restarted.starts).toBeGreaterThan(captured.starts);
    await again.frame.waitForFunction((n: number) => document.querySelectorAll('[data-testid="session-row"]').length >= n, { polling: 100, timeout: 30_000 }, Object.keys(SESSIONS).length);
    expect((await sessionKeys(again.frame)).sort()).toEqual(Object.keys(SESSIONS).sort());
    for (const [key, events] of Object.entries(SESSIONS)) {
      const shown = await showSession(again.frame, key, events);
      console.log(`[event page] reopened viewer, session ${key}: sent ${events}, shows ${shown.events}, counted as dropped ${shown.dropped}`);
      expect(shown).toEqual({ events, dropped: 0 });
    }
    expect(await again.frame.evaluate(() => document.querySelector('[data-testid="empty-state"]') === null)).toBe(true);
    await again.viewer.close();
    await page.close();
  }, 240_000);

  async function openViewerOnTab(): Promise<{ viewer: Page; frame: Frame }> {
    const viewer = await firefox.openViewer();
    return { viewer, frame: await chooseTab(viewer) };
  }
});
