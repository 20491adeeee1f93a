import { drawAxis, drawLaneTitles, drawValueScale } from './axis';
import { lowerBound } from './bounds';
import type { Ctx } from './ctx';
import { drawStream, type Scratch } from './draw-stream';
import { layoutOf, RIGHT_PX, rowY, seqY, type Layout } from './layout';
import type { ResumeTone, TimelineData } from './marks';
import type { Palette } from './palette';
import { createTextBoxes, type TextBox, type TextWidths } from './text-boxes';
import type { View } from './view';

/** Everything one frame depends on. */
export interface Frame {
  data: TimelineData;
  view: View;
  /** CSS pixels; the caller scales the context for the device pixel ratio. */
  width: number;
  height: number;
  palette: Palette;
  selected: { stream: number; event: number } | null;
  /** Rows of the resume-label band above the axis (layout.ts). */
  bandRows: number;
  /** The (short, display-safe) id label of an event, for zoomed-in views. */
  idOf?: (stream: number, event: number) => string | undefined;
}

/** What a frame drew: marks (or columns), and every piece of text with its box. */
export interface Painted {
  drawn: number;
  text: TextBox[];
}

export function toneColour(palette: Palette, tone: ResumeTone): string {
  return tone === 'error' ? palette.error : tone === 'ok' ? palette.ok : tone === 'warning' ? palette.warning : palette.info;
}

/**
 * Draws one frame. Its cost follows what is visible: streams outside the window are skipped,
 * each visible stream's marks are found by binary search, and dense stretches are drawn per
 * pixel column. Text is placed so that no two pieces overlap (text-boxes.ts).
 */
export function drawTimeline(ctx: Ctx, frame: Frame, scratch: Scratch, widths?: TextWidths): Painted {
  const { data, view, width, height, palette } = frame;
  const layout = layoutOf(width, height, data.rows, frame.bandRows);
  const text = createTextBoxes({ left: 0, right: width, top: 0, bottom: height }, widths);
  ctx.fillStyle = palette.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = palette.laneBackground;
  ctx.fillRect(layout.plotLeft, layout.lane1Top - 4, layout.plotWidth + RIGHT_PX, layout.lane1Height + 8);
  ctx.fillRect(layout.plotLeft, layout.lane2Top, layout.plotWidth + RIGHT_PX, layout.lane2Height);
  ctx.font = '11px system-ui, sans-serif';
  drawLaneTitles(ctx, data, layout, palette, text);
  drawValueScale(ctx, data, layout, palette, text);

  // The plot, translated to its left edge and clipped to it: nothing runs into the gutter.
  ctx.save();
  ctx.beginPath();
  ctx.rect(layout.plotLeft, 0, layout.plotWidth + RIGHT_PX, height);
  ctx.clip();
  ctx.translate(layout.plotLeft, 0);
  text.translated(layout.plotLeft);
  drawAxis(ctx, data, view, layout, palette, text);
  const end = view.start + view.span;
  const pxPerUnit = layout.plotWidth / view.span;
  const x = (t: number): number => (t - view.start) * pxPerUnit;
  // Stream lifetimes: a thin bar per stream in its lane-1 row.
  for (const s of data.streams) {
    if (s.end < view.start || s.start > end) continue;
    ctx.fillStyle = s.streamError ? palette.error : palette.grid;
    const from = Math.max(-1, x(s.start));
    ctx.fillRect(from, rowY(layout, s.row) - 0.5, Math.max(1, Math.min(layout.plotWidth + RIGHT_PX, x(s.end)) - from), 1);
  }
  let drawn = 0;
  const f = { ctx, data, view, width: layout.plotWidth, layout, palette, text, ...(frame.idOf ? { idOf: frame.idOf } : {}) };
  for (const s of data.streams) {
    if (s.count === 0 || s.time[s.count - 1]! < view.start || s.time[0]! > end) continue;
    drawn += drawStream(f, s, scratch);
  }
  drawBridges(ctx, frame, layout, x);
  drawBoundaries(ctx, frame, layout, x);
  drawSelection(ctx, frame, layout, x);
  ctx.restore();
  text.translated(0);
  return { drawn, text: text.placed };
}

/** A vertical line per resume, from the label band down, coloured by its tone. */
function drawBoundaries(ctx: Ctx, frame: Frame, layout: Layout, x: (t: number) => number): void {
  for (const r of frame.data.resumes) {
    const at = x(r.time);
    if (at < -2 || at > layout.plotWidth + RIGHT_PX + 2) continue;
    ctx.fillStyle = toneColour(frame.palette, r.tone);
    ctx.fillRect(Math.round(at) - (r.bad ? 1 : 0), 0, r.bad ? 3 : 1, frame.height);
  }
}

/**
 * Each resume's two sides joined: in lane 2 from the last value before it to the first after,
 * in lane 1 (dashed) from the event that delivered Last-Event-ID to the first replayed one. Red
 * where the sequences stop advancing together, green where they go on.
 */
function drawBridges(ctx: Ctx, frame: Frame, layout: Layout, x: (t: number) => number): void {
  const { data, palette } = frame;
  const rowOf = new Map(data.streams.map((s) => [s.stream, s.row]));
  for (const b of data.bridges) {
    ctx.strokeStyle = b.bad ? palette.error : palette.ok;
    ctx.lineWidth = b.bad ? 2.5 : 2;
    if (b.from.seq === b.from.seq && b.to.seq === b.to.seq) {
      ctx.beginPath();
      ctx.moveTo(x(b.from.time), seqY(layout, data, b.from.seq));
      ctx.lineTo(x(b.to.time), seqY(layout, data, b.to.seq));
      ctx.stroke();
    }
    ctx.setLineDash([4, 3]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    const [from, to] = [rowOf.get(b.from.stream) ?? 0, rowOf.get(b.to.stream) ?? 0];
    // In one row, under the marks and their id labels rather than through them.
    const under = from === to ? layout.rowHeight / 2 - 1 : 0;
    ctx.moveTo(x(b.from.time), rowY(layout, from) + under);
    ctx.lineTo(x(b.to.time), rowY(layout, to) + under);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.lineWidth = 1;
}

function drawSelection(ctx: Ctx, frame: Frame, layout: Layout, x: (t: number) => number): void {
  const selected = frame.selected;
  if (!selected) return;
  const s = frame.data.streams.find((m) => m.stream === selected.stream);
  if (!s) return;
  const i = lowerBound(s.event, selected.event, 0, s.count);
  if (i >= s.count || s.event[i] !== selected.event) return;
  const at = x(s.time[i]!);
  ctx.strokeStyle = frame.palette.selection;
  ctx.lineWidth = 2;
  ctx.beginPath();
  const y1 = rowY(layout, s.row);
  ctx.rect(at - 5, y1 - 7, 10, 14);
  if (s.seqKey[i]! >= 0) {
    const y2 = seqY(layout, frame.data, s.seq[i]!);
    ctx.rect(at - 5, y2 - 5, 10, 10);
  }
  ctx.stroke();
  ctx.lineWidth = 1;
}
