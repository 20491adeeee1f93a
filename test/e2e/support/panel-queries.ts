import type { Frame, Page } from 'puppeteer-core';

/** Everything a test reads off the panel, by data-testid. */
export interface PanelState {
  sessions: number;
  streams: { method: string; end: string; status: string; lastEventId: string; events: number; source: string; rows: number }[];
  findings: { code: string; severity: string }[];
  dropped: number;
  rejected: number;
}

// Plain JavaScript, evaluated inside the panel frame (kept as text so no transpiler helper
// sneaks into code that runs in the browser).
const READ_PANEL = `(() => {
  const all = (id, root = document) => [...root.querySelectorAll('[data-testid="' + id + '"]')];
  const dropped = all('dropped-count')[0];
  return {
    sessions: all('session-row').length,
    streams: all('stream-row').map((row) => ({
      method: row.dataset.method || '',
      end: row.dataset.end || '',
      status: row.dataset.status || '',
      lastEventId: row.dataset.lastEventId || '',
      events: Number(row.dataset.events),
      source: row.dataset.source || '',
      rows: row.parentElement ? all('event-row', row.parentElement).length : 0,
    })),
    findings: all('finding').map((f) => ({ code: f.dataset.code || '', severity: f.dataset.severity || '' })),
    dropped: dropped ? Number(dropped.textContent) : NaN,
    rejected: dropped ? Number(dropped.dataset.rejected) : NaN,
  };
})()`;

export async function readPanel(panel: Frame): Promise<PanelState> {
  return (await panel.evaluate(READ_PANEL)) as PanelState;
}

/**
 * Waits until `predicate` (JavaScript source of `(state) => boolean`) holds for what the panel
 * shows; the DOM is polled every 100 ms, up to `timeout`.
 */
export async function waitForPanel(panel: Frame, predicate: string, timeout = 60_000): Promise<PanelState> {
  return waitFor(panel, predicate, 100, timeout);
}

/**
 * Like {@link waitForPanel}, for a state the panel shows only for a while (a stream while it is
 * open): the predicate runs on every change of the panel's DOM, so a state it rendered is seen
 * however briefly it stood and however slow the machine, where a 100 ms poll can fall on either
 * side of it.
 */
export async function waitForPanelToShow(panel: Frame, predicate: string, timeout = 60_000): Promise<PanelState> {
  return waitFor(panel, predicate, 'mutation', timeout);
}

async function waitFor(panel: Frame, predicate: string, polling: number | 'mutation', timeout: number): Promise<PanelState> {
  const handle = await panel.waitForFunction(`(() => { const s = ${READ_PANEL}; return (${predicate})(s) ? s : null; })()`, { polling, timeout });
  return (await handle.jsonValue()) as PanelState;
}

/**
 * Waits until an imported capture is whole on screen: no import under way, and every part of the
 * workbench rendered (it renders them over a few frames). An import shows the capture as soon as
 * it holds a session and grows it as the rest is read, so a row count taken before this is a
 * count of what was read so far.
 */
export async function waitForImportSettled(root: Page | Frame): Promise<void> {
  await root.waitForFunction(() => !document.querySelector('[data-testid="import-progress"]'), { timeout: 30_000 });
  await root.waitForSelector('.workbench:not([aria-busy])', { timeout: 30_000 });
}
