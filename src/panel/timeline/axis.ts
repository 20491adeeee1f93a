import type { Ctx } from './ctx';
import type { Palette } from './palette';
import type { View } from './view';

/** Tick labels aim to be this far apart. */
const TICK_PX = 110;

/** 1, 2 or 5 times a power of ten, at least `raw`. */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

export function formatOffset(ms: number, step: number): string {
  if (step >= 1000) return `${(ms / 1000).toFixed(Math.max(0, -Math.floor(Math.log10(step / 1000))))} s`;
  return `${ms.toFixed(Math.max(0, -Math.floor(Math.log10(step))))} ms`;
}

/** Grid lines and time labels (ms since the session's first request). Cost: width / TICK_PX. */
export function drawAxis(ctx: Ctx, view: View, width: number, height: number, axisHeight: number, palette: Palette): void {
  const step = niceStep((view.span * TICK_PX) / Math.max(width, 1));
  const pxPerMs = width / view.span;
  ctx.fillStyle = palette.grid;
  ctx.beginPath();
  const first = Math.ceil(view.start / step);
  const last = Math.floor((view.start + view.span) / step);
  for (let n = first; n <= last; n++) ctx.rect(Math.round((n * step - view.start) * pxPerMs), 0, 1, height);
  ctx.fill();
  ctx.fillStyle = palette.muted;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  for (let n = first; n <= last; n++) ctx.fillText(formatOffset(n * step, step), Math.round((n * step - view.start) * pxPerMs) + 3, axisHeight / 2);
}
