import { lowerBound, upperBound } from './bounds';
import type { Ctx } from './ctx';
import { rowY, seqY, type Layout } from './layout';
import { MARK_DESYNC, MARK_ERROR, MARK_HAS_ID, type StreamMarks, type TimelineData } from './marks';
import { streamColour, type Palette } from './palette';
import { accumulateColumns, type Columns } from './pyramid';
import type { TextBoxes } from './text-boxes';
import type { View } from './view';

/** Marks closer together than this many pixels are drawn as per-column aggregates. */
export const MIN_MARK_PX = 3;
/** Id and value labels are tried only where marks are at least this far apart on average. */
const LABEL_PX = 90;
/** Between a mark and its label. */
const LABEL_GAP = 5;
const RED = MARK_ERROR | MARK_DESYNC;

/** Per-column buffers reused from frame to frame (no allocation while panning). */
export type Scratch = Columns;

export function createScratch(): Scratch {
  return { min: new Float64Array(0), max: new Float64Array(0), flags: new Uint8Array(0), has: new Uint8Array(0), c0: 0, c1: -1 };
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
  /** The plot's width; the context is translated to the plot's left edge. */
  width: number;
  layout: Layout;
  palette: Palette;
  /** Where the frame's text stands so far: a label that would overlap any of it is left out. */
  text?: TextBoxes;
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
  if (f.idOf && f.text && hi - lo > 0 && (hi - lo) * LABEL_PX <= f.width * 4) drawLabels(f, f.text, s, lo, hi, x, y1);
  return hi - lo;
}

/**
 * Short id labels beside their marks in lane 1, and values beside their points in lane 2, where
 * there is room: a label must end before the stream's next mark and overlap no other text (the
 * frame's text boxes say). Past the plot's right edge a label goes to the left of its mark.
 */
function drawLabels(f: StreamFrame, text: TextBoxes, s: StreamMarks, lo: number, hi: number, x: (i: number) => number, y1: number): void {
  const { ctx } = f;
  ctx.fillStyle = f.palette.text;
  for (let i = lo; i < hi; i++) {
    const at = x(i);
    const next = i + 1 < s.count ? x(i + 1) : Infinity;
    const previous = i > 0 ? x(i - 1) : -Infinity;
    const id = f.idOf!(s.stream, s.event[i]!);
    if (id !== undefined) besideMark(ctx, text, id, at, y1, previous, next, f.width);
    if (s.seqKey[i]! >= 0) besideMark(ctx, text, String(s.seq[i]), at, seqY(f.layout, f.data, s.seq[i]!) - 8, previous, next, f.width);
  }
}

function besideMark(ctx: Ctx, text: TextBoxes, label: string, at: number, y: number, previous: number, next: number, width: number): void {
  const w = text.width(ctx, label);
  if (at + LABEL_GAP + w < Math.min(next - LABEL_GAP, width) && text.draw(ctx, label, at + LABEL_GAP, y)) return;
  if (at - LABEL_GAP - w > Math.max(previous + LABEL_GAP, 0)) text.draw(ctx, label, at - LABEL_GAP, y, 'right');
}

/** Level of detail: one aggregate per pixel column, built from the pyramid's blocks. */
function drawColumns(f: StreamFrame, s: StreamMarks, lo: number, hi: number, pxPerMs: number, scratch: Scratch): number {
  const { ctx, layout, data, width } = f;
  ensure(scratch, width);
  const { min, max, flags, has } = scratch;
  accumulateColumns(s.time, s.seq, s.flags, s.pyramid, lo, hi, f.view.start, pxPerMs, width, scratch);
  const { c0, c1 } = scratch;
  const y1 = rowY(layout, s.row);
  const colour = streamColour(f.palette, s.colour);
  // Lane 1: one rect per run of adjacent marked columns, not one per column.
  for (const red of [false, true]) {
    ctx.fillStyle = red ? f.palette.error : colour;
    ctx.beginPath();
    let run = -1;
    for (let c = c0; c <= c1 + 1; c++) {
      const on = c <= c1 && has[c] === 1 && ((flags[c]! & RED) !== 0) === red;
      if (on && run < 0) run = c;
      else if (!on && run >= 0) (ctx.rect(run, y1 - 5, c - run, 10), (run = -1));
    }
    ctx.fill();
  }
  // Lane 2: per run of columns with values, one polygon along the maxima and back along the
  // minima. A point is only added where the edge moves by half a pixel: a steady climb across a
  // thousand columns becomes a few dozen segments.
  ctx.fillStyle = colour;
  ctx.beginPath();
  let drawn = 0;
  for (let c = c0; c <= c1; c++) {
    if (!has[c] || min[c] !== min[c]) continue;
    let e = c;
    while (e + 1 <= c1 && has[e + 1] && min[e + 1] === min[e + 1]) e++;
    let y = seqY(layout, data, max[c]!) - 0.5;
    ctx.moveTo(c, y);
    for (let k = c; k <= e; k++) {
      const next = seqY(layout, data, max[k]!) - 0.5;
      if (k === e || Math.abs(next - y) >= 0.5) ctx.lineTo(k + 1, (y = next));
    }
    y = seqY(layout, data, min[e]!) + 0.5;
    ctx.lineTo(e + 1, y);
    for (let k = e; k >= c; k--) {
      const next = seqY(layout, data, min[k]!) + 0.5;
      if (k === c || Math.abs(next - y) >= 0.5) ctx.lineTo(k, (y = next));
    }
    ctx.closePath();
    drawn += e - c + 1;
    c = e;
  }
  ctx.fill();
  // Columns an error finding points at, in red on top.
  ctx.fillStyle = f.palette.error;
  ctx.beginPath();
  for (let c = c0; c <= c1; c++) {
    if (!has[c] || (flags[c]! & RED) === 0 || min[c] !== min[c]) continue;
    const top = seqY(layout, data, max[c]!);
    ctx.rect(c - 1, top - 2, 3, Math.max(4, seqY(layout, data, min[c]!) - top + 4));
  }
  ctx.fill();
  if (c1 >= c0) has.fill(0, c0, c1 + 1);
  return drawn;
}
