import type { Ctx } from './ctx';
import { seqY, type Layout } from './layout';
import type { TimelineData } from './marks';
import type { Palette } from './palette';
import type { TextBoxes } from './text-boxes';
import type { View } from './view';

/** Tick labels aim to be this far apart. */
const TICK_PX = 110;
/** Value-scale labels aim to be this far apart in lane 2. */
const SCALE_PX = 28;

/** 1, 2 or 5 times a power of ten, at least `raw`. */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** The 1, 2 or 5 times a power of ten nearest to `raw`. */
export function nearestNiceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  let best = power;
  for (const m of [1, 2, 5, 10]) if (Math.abs(m * power - raw) < Math.abs(best - raw)) best = m * power;
  return best;
}

export function formatOffset(ms: number, step: number): string {
  if (step >= 1000) return `${(ms / 1000).toFixed(Math.max(0, -Math.floor(Math.log10(step / 1000))))} s`;
  return `${ms.toFixed(Math.max(0, -Math.floor(Math.log10(step))))} ms`;
}

/** A value of the application sequence in a few characters: 12, 4.5k, 1.2M. */
export function formatValue(value: number): string {
  const size = Math.abs(value);
  if (size >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (size >= 1e4) return `${+(value / 1e3).toFixed(1)}k`;
  return String(+value.toFixed(2));
}

/**
 * Grid lines and tick labels of the x axis, in the plot (the context translated to its left
 * edge): ms since the session's first request, or the event's place in arrival order.
 * Cost: width / TICK_PX.
 */
export function drawAxis(ctx: Ctx, data: TimelineData, view: View, layout: Layout, palette: Palette, text: TextBoxes): void {
  const width = layout.plotWidth;
  const order = data.axis === 'order';
  const step = Math.max(order ? 1 : 0, niceStep((view.span * TICK_PX) / Math.max(width, 1)));
  const pxPerUnit = width / view.span;
  const first = Math.ceil(view.start / step);
  const last = Math.floor((view.start + view.span) / step);
  const xOf = (n: number) => Math.round((n * step - view.start) * pxPerUnit);
  ctx.fillStyle = palette.grid;
  ctx.beginPath();
  for (let n = first; n <= last; n++) ctx.rect(xOf(n), layout.axisTop, 1, layout.height - layout.axisTop);
  ctx.fill();
  ctx.fillStyle = palette.muted;
  const y = layout.axisTop + layout.axisHeight / 2;
  for (let n = first; n <= last; n++) text.draw(ctx, order ? String(n * step) : formatOffset(n * step, step), xOf(n) + 3, y);
}

/** Lane 2's value scale: tick values in the gutter, faint lines across the plot. */
export function drawValueScale(ctx: Ctx, data: TimelineData, layout: Layout, palette: Palette, text: TextBoxes): void {
  if (!(data.seqMin === data.seqMin)) return;
  const range = data.seqMax - data.seqMin;
  // The lowest and highest values first: they keep their labels, and nice steps fill in between.
  const ticks = range > 0 ? [data.seqMin, data.seqMax] : [data.seqMin];
  if (range > 0) {
    const wanted = Math.max(2, Math.floor((layout.lane2Height - 14) / SCALE_PX));
    const step = nearestNiceStep(range / wanted);
    for (let v = Math.ceil(data.seqMin / step) * step; v < data.seqMax; v += step) if (v > data.seqMin) ticks.push(v);
  }
  ctx.fillStyle = palette.grid;
  ctx.beginPath();
  for (const v of ticks) ctx.rect(layout.plotLeft, Math.round(seqY(layout, data, v)), layout.plotWidth, 1);
  ctx.fill();
  ctx.fillStyle = palette.muted;
  for (const v of ticks) text.draw(ctx, formatValue(v), layout.plotLeft - 6, seqY(layout, data, v), 'right');
}

/** The lane titles, in the gutter beside each lane; lane 2's names the sequence it shows. */
export function drawLaneTitles(ctx: Ctx, data: TimelineData, layout: Layout, palette: Palette, text: TextBoxes): void {
  ctx.fillStyle = palette.muted;
  text.draw(ctx, data.axis === 'order' ? 'event #' : 'time', 4, layout.axisTop + layout.axisHeight / 2);
  text.draw(ctx, 'event ids', 4, layout.lane1Top + Math.min(layout.lane1Height, 16) / 2);
  text.draw(ctx, sequenceTitle(data.seqKeys), 4, layout.lane2Top - 9);
}

/** `app_seq`, `progress`, or `sequence` when a session mixes kinds. */
export function sequenceTitle(keys: readonly string[]): string {
  const kinds = new Set(keys.map((k) => (k === 'app_seq' ? 'app_seq' : k.startsWith('progress:') ? 'progress' : 'sequence')));
  return kinds.size === 1 ? [...kinds][0]! : 'sequence';
}
