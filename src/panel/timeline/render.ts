import type { Verdict } from '../../core/index';
import { drawAxis } from './axis';
import { lowerBound } from './bounds';
import type { Ctx } from './ctx';
import { drawStream, type Scratch } from './draw-stream';
import { layoutOf, rowY, seqY, type Layout } from './layout';
import type { TimelineData } from './marks';
import type { Palette } from './palette';
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
  /** The (short, display-safe) id label of an event, for zoomed-in views. */
  idOf?: (stream: number, event: number) => string | undefined;
}

export function verdictColour(palette: Palette, verdict: Verdict, bad: boolean): string {
  if (bad) return palette.error;
  if (verdict === 'genuine') return palette.ok;
  if (verdict === 'rejected' || verdict === 'expired') return palette.info;
  return palette.warning;
}

/**
 * Draws one frame. Its cost follows what is visible: streams outside the window are skipped,
 * each visible stream's marks are found by binary search, and dense stretches are drawn per
 * pixel column. Returns the number of marks and columns drawn.
 */
export function drawTimeline(ctx: Ctx, frame: Frame, scratch: Scratch): number {
  const { data, view, width, height, palette } = frame;
  const layout = layoutOf(height, data.rows);
  ctx.fillStyle = palette.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = palette.laneBackground;
  ctx.fillRect(0, layout.lane1Top - 4, width, layout.lane1Height + 8);
  ctx.fillRect(0, layout.lane2Top, width, layout.lane2Height);
  drawAxis(ctx, view, width, height, layout.axisHeight, palette);
  ctx.font = '11px system-ui, sans-serif';
  const end = view.start + view.span;
  const pxPerMs = width / view.span;
  const x = (t: number): number => (t - view.start) * pxPerMs;
  // Stream lifetimes: a thin bar per stream in its lane-1 row.
  for (const s of data.streams) {
    if (s.end < view.start || s.start > end) continue;
    ctx.fillStyle = s.streamError ? palette.error : palette.grid;
    ctx.fillRect(Math.max(0, x(s.start)), rowY(layout, s.row) - 0.5, Math.max(1, Math.min(width, x(s.end)) - Math.max(0, x(s.start))), 1);
  }
  let drawn = 0;
  const f = { ctx, data, view, width, layout, palette, labelEnds: [] as number[], ...(frame.idOf ? { idOf: frame.idOf } : {}) };
  for (const s of data.streams) {
    if (s.count === 0 || s.time[s.count - 1]! < view.start || s.time[0]! > end) continue;
    drawn += drawStream(f, s, scratch);
  }
  drawBoundaries(ctx, frame, layout, x);
  drawSelection(ctx, frame, layout, x);
  drawLaneTitles(ctx, layout, palette);
  return drawn;
}

/** Resume markers and, across bad ones, the desync segment in red. */
function drawBoundaries(ctx: Ctx, frame: Frame, layout: Layout, x: (t: number) => number): void {
  const { data, palette, width, height } = frame;
  for (const r of data.resumes) {
    const at = x(r.time);
    if (at < -2 || at > width + 2) continue;
    ctx.fillStyle = verdictColour(palette, r.verdict, r.bad);
    ctx.fillRect(Math.round(at) - (r.bad ? 1 : 0), layout.axisHeight, r.bad ? 3 : 1, height - layout.axisHeight);
  }
  const rowOf = new Map(data.streams.map((s) => [s.stream, s.row]));
  ctx.strokeStyle = palette.error;
  for (const d of data.desyncs) {
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    if (d.from.seq === d.from.seq && d.to.seq === d.to.seq) {
      ctx.moveTo(x(d.from.time), seqY(layout, data, d.from.seq));
      ctx.lineTo(x(d.to.time), seqY(layout, data, d.to.seq));
    }
    ctx.stroke();
    ctx.setLineDash([4, 3]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x(d.from.time), rowY(layout, rowOf.get(d.from.stream) ?? 0));
    ctx.lineTo(x(d.to.time), rowY(layout, rowOf.get(d.to.stream) ?? 0));
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
  ctx.rect(at - 5, y1 - 8, 10, 16);
  if (s.seqKey[i]! >= 0) {
    const y2 = seqY(layout, frame.data, s.seq[i]!);
    ctx.rect(at - 5, y2 - 5, 10, 10);
  }
  ctx.stroke();
  ctx.lineWidth = 1;
}

function drawLaneTitles(ctx: Ctx, layout: Layout, palette: Palette): void {
  ctx.fillStyle = palette.muted;
  ctx.textBaseline = 'bottom';
  ctx.textAlign = 'left';
  ctx.fillText('transport event ids', 4, layout.lane1Top - 4);
  ctx.fillText('application sequence (app_seq / progress)', 4, layout.lane2Top - 1);
}
