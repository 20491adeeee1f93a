import { lowerBound, upperBound } from './bounds';
import type { Ctx } from './ctx';
import { rowY, seqY, type Layout } from './layout';
import { MARK_DESYNC, MARK_ERROR, MARK_HAS_ID, type StreamMarks, type TimelineData } from './marks';
import { streamColour, type Palette } from './palette';
import { forEachBlock } from './pyramid';
import type { View } from './view';

/** Marks closer together than this many pixels are drawn as per-column aggregates. */
export const MIN_MARK_PX = 3;
/** Id and value labels appear when neighbouring marks are at least this far apart. */
const LABEL_PX = 90;
const RED = MARK_ERROR | MARK_DESYNC;

/** Per-column buffers reused from frame to frame (no allocation while panning). */
export interface Scratch {
  min: Float64Array;
  max: Float64Array;
  flags: Uint8Array;
  has: Uint8Array;
}

export function createScratch(): Scratch {
  return { min: new Float64Array(0), max: new Float64Array(0), flags: new Uint8Array(0), has: new Uint8Array(0) };
}

function ensure(scratch: Scratch, width: number): void {
  if (scratch.has.length >= width) return;
  scratch.min = new Float64Array(width);
  scratch.max = new Float64Array(width);
  scratch.flags = new Uint8Array(width);
  scratch.has = new Uint8Array(width);
}

export interface StreamFrame {
  ctx: Ctx;
  data: TimelineData;
  view: View;
  width: number;
  layout: Layout;
  palette: Palette;
  idOf?: (stream: number, event: number) => string | undefined;
}

/** Draws one stream's visible marks; returns how many marks (or columns) it drew. */
export function drawStream(f: StreamFrame, s: StreamMarks, scratch: Scratch): number {
  const pxPerMs = f.width / f.view.span;
  const lo = lowerBound(s.time, f.view.start, 0, s.count);
  const hi = upperBound(s.time, f.view.start + f.view.span, lo, s.count);
  if ((hi - lo) * MIN_MARK_PX <= f.width) return drawMarks(f, s, lo, hi, pxPerMs);
  return drawColumns(f, s, lo, hi, pxPerMs, scratch);
}

function drawMarks(f: StreamFrame, s: StreamMarks, lo: number, hi: number, pxPerMs: number): number {
  const { ctx, layout, data } = f;
  const colour = streamColour(f.palette, s.colour);
  const y1 = rowY(layout, s.row);
  const x = (i: number): number => (s.time[i]! - f.view.start) * pxPerMs;
  // Lane 2 line: one neighbour beyond each edge so the line runs off the canvas, not stops short.
  const from = Math.max(0, lo - 1);
  const to = Math.min(s.count, hi + 1);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.beginPath();
  let previous = -1;
  for (let i = from; i < to; i++) {
    if (s.seqKey[i]! < 0) continue;
    const y = seqY(layout, data, s.seq[i]!);
    if (previous >= 0 && s.seqKey[previous] === s.seqKey[i]) ctx.lineTo(x(i), y);
    else ctx.moveTo(x(i), y);
    previous = i;
  }
  ctx.stroke();
  // Links: each event's transport mark to its app-sequence mark.
  ctx.globalAlpha = 0.35;
  ctx.beginPath();
  for (let i = lo; i < hi; i++) {
    if (s.seqKey[i]! < 0) continue;
    ctx.moveTo(x(i), y1 + 5);
    ctx.lineTo(x(i), seqY(layout, data, s.seq[i]!));
  }
  ctx.stroke();
  ctx.globalAlpha = 1;
  for (const red of [false, true]) {
    ctx.fillStyle = red ? f.palette.error : colour;
    ctx.beginPath();
    for (let i = lo; i < hi; i++) {
      if (((s.flags[i]! & RED) !== 0) !== red) continue;
      const half = red ? 3 : 2;
      if (s.flags[i]! & MARK_HAS_ID) ctx.rect(x(i) - half, y1 - 5, half * 2, 10);
      else ctx.rect(x(i) - 1, y1 - 3, 2, 6);
      if (s.seqKey[i]! >= 0) ctx.rect(x(i) - half, seqY(layout, data, s.seq[i]!) - half, half * 2, half * 2);
    }
    ctx.fill();
  }
  if (f.idOf && hi - lo > 0 && (hi - lo) * LABEL_PX <= f.width * 4) drawLabels(f, s, lo, hi, x, y1);
  return hi - lo;
}

/** Short id and value labels where there is room for them (the next mark is far enough). */
function drawLabels(f: StreamFrame, s: StreamMarks, lo: number, hi: number, x: (i: number) => number, y1: number): void {
  const { ctx } = f;
  ctx.fillStyle = f.palette.text;
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'left';
  let lastLabel = -Infinity;
  for (let i = lo; i < hi; i++) {
    const at = x(i);
    if (at - lastLabel < LABEL_PX) continue;
    const next = i + 1 < s.count ? x(i + 1) : Infinity;
    if (next - at < LABEL_PX / 2) continue;
    const id = f.idOf!(s.stream, s.event[i]!);
    if (id !== undefined) ctx.fillText(id, at + 4, y1 - 4);
    if (s.seqKey[i]! >= 0) ctx.fillText(String(s.seq[i]), at + 4, seqY(f.layout, f.data, s.seq[i]!) - 3);
    lastLabel = at;
  }
}

/** Level of detail: one aggregate per pixel column, built from the pyramid's blocks. */
function drawColumns(f: StreamFrame, s: StreamMarks, lo: number, hi: number, pxPerMs: number, scratch: Scratch): number {
  const { ctx, layout, data, width } = f;
  ensure(scratch, width);
  const { min, max, flags, has } = scratch;
  let c0 = width;
  let c1 = -1;
  forEachBlock(s.time, s.seq, s.flags, s.pyramid, lo, hi, pxPerMs, (first, _last, lowest, highest, or) => {
    const c = Math.min(width - 1, Math.max(0, Math.floor((s.time[first]! - f.view.start) * pxPerMs)));
    if (c < c0) c0 = c;
    if (c > c1) c1 = c;
    if (!has[c]) {
      has[c] = 1;
      flags[c] = or;
      min[c] = lowest;
      max[c] = highest;
      return;
    }
    flags[c] = flags[c]! | or;
    if (lowest < min[c]! || min[c] !== min[c]) min[c] = lowest;
    if (highest > max[c]! || max[c] !== max[c]) max[c] = highest;
  });
  const y1 = rowY(layout, s.row);
  let drawn = 0;
  for (const red of [false, true]) {
    ctx.fillStyle = red ? f.palette.error : streamColour(f.palette, s.colour);
    ctx.beginPath();
    for (let c = c0; c <= c1; c++) {
      if (!has[c] || ((flags[c]! & RED) !== 0) !== red) continue;
      ctx.rect(c, y1 - 5, 1, 10);
      if (min[c] === min[c]) {
        const top = seqY(layout, data, max[c]!);
        ctx.rect(c, top, 1, Math.max(1, seqY(layout, data, min[c]!) - top));
      }
      drawn++;
    }
    ctx.fill();
  }
  if (c1 >= c0) has.fill(0, c0, c1 + 1);
  return drawn;
}
