/**
 * Reads the panel's paint entries (the `mcp-stream-lens:paint` User Timing measure that
 * src/panel/timeline/Timeline.tsx records after each frame) inside a browser frame. Kept as text,
 * so no transpiler helper sneaks into code that runs in the browser.
 */
import type { Frame, Page } from 'puppeteer-core';

/** One painted frame: how many events it drew, when it finished (epoch ms), and its paint time. */
export interface Paint {
  events: number;
  at: number;
  ms: number;
}

/**
 * Installs `window.__paints` (every paint from now on) and `window.__waitPaints(n)` (resolves
 * once more than n paints are recorded). `performance.timeOrigin + startTime` is the same clock
 * in every frame and process of the browser.
 */
export const PAINT_OBSERVER = `(() => {
  if (window.__paints) return;
  const paints = (window.__paints = []);
  let waiters = [];
  window.__waitPaints = (n) => (paints.length > n ? paints.length : new Promise((ok) => waiters.push([n, ok])));
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'mcp-stream-lens:paint') paints.push({ events: e.detail.events, at: performance.timeOrigin + e.startTime + e.duration, ms: e.duration });
    }
    waiters = waiters.filter(([n, ok]) => (paints.length > n ? (ok(paints.length), false) : true));
  }).observe({ type: 'measure' });
})()`;

export async function paintCount(frame: Page | Frame): Promise<number> {
  return (await frame.evaluate('window.__paints.length')) as number;
}

/** Waits until a paint drew at least `events` events (polled every 100 ms, bounded). */
export async function waitForPaintOf(frame: Page | Frame, events: number, timeout: number): Promise<void> {
  await frame.waitForFunction(`window.__paints.some((p) => p.events >= ${events})`, { polling: 100, timeout });
}

export async function readPaints(frame: Page | Frame): Promise<Paint[]> {
  return (await frame.evaluate('window.__paints')) as Paint[];
}
