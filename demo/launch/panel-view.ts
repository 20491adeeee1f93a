import type { Frame } from 'puppeteer-core';
import { POLL_MS } from './devtools-panel.js';

/** How long the panel may take to show every stream the load balancer saw. */
export const PANEL_CATCH_UP_MS = 10_000;

/** What the extension panel showed, read from its DOM (its `data-testid`s). */
export interface PanelView {
  streams: number;
  events: number;
  transports: string[];
  findings: string[];
  /** Set when the panel did not catch up with the load balancer's recording in time. */
  note?: string;
}

/**
 * Waits until the panel shows at least the streams and events the load balancer recorded, with
 * every part of its workbench rendered, then reads what it shows. A panel that lags is noted, not fatal (its exports then lack the rest).
 */
export async function readPanel(panel: Frame, expected: { streams: number; events: number }): Promise<PanelView> {
  let note: string | undefined;
  await panel
    .waitForFunction(
      (want: { streams: number; events: number }) => {
        const shown = document.querySelector<HTMLElement>('[data-testid="summary"]')?.dataset;
        // The workbench renders its parts over a few frames (aria-busy until all are there):
        // the sessions and findings read below are in its later parts.
        const settled = want.streams === 0 || document.querySelector('.workbench:not([aria-busy])') !== null;
        return settled && Number(shown?.streams ?? -1) >= want.streams && Number(shown?.events ?? -1) >= want.events;
      },
      { timeout: PANEL_CATCH_UP_MS, polling: POLL_MS },
      expected,
    )
    .catch(() => (note = `the panel did not catch up with ${expected.streams} streams and ${expected.events} events within ${PANEL_CATCH_UP_MS / 1000} s`));
  // No helper functions inside: tsx would wrap them in its `__name`, which the page lacks.
  const view = await panel.evaluate(() => ({
    streams: Number(document.querySelector<HTMLElement>('[data-testid="summary"]')?.dataset.streams ?? 0),
    events: Number(document.querySelector<HTMLElement>('[data-testid="summary"]')?.dataset.events ?? 0),
    transports: [...document.querySelectorAll<HTMLElement>('[data-testid="session-row"]')].map((e) => e.dataset.transport ?? ''),
    findings: [...document.querySelectorAll<HTMLElement>('[data-testid="finding"]')].map((e) => e.dataset.code ?? ''),
  }));
  return note === undefined ? view : { ...view, note };
}
