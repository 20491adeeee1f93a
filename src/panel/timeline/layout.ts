import type { TimelineData } from './marks';

/** Vertical layout of the canvas: the time axis, lane 1 (one row per stream row), lane 2. */
export interface Layout {
  axisHeight: number;
  lane1Top: number;
  rowHeight: number;
  lane1Height: number;
  lane2Top: number;
  lane2Height: number;
}

export const AXIS_HEIGHT = 18;
const ROW_HEIGHT = 16;
const LANE_GAP = 14;
const MIN_LANE2 = 48;

export function layoutOf(height: number, rows: number): Layout {
  const lane1Top = AXIS_HEIGHT + 12;
  const lane1Height = Math.max(ROW_HEIGHT * rows, 24);
  const lane2Top = lane1Top + lane1Height + LANE_GAP;
  return { axisHeight: AXIS_HEIGHT, lane1Top, rowHeight: ROW_HEIGHT, lane1Height, lane2Top, lane2Height: Math.max(MIN_LANE2, height - lane2Top - 6) };
}

export const rowY = (layout: Layout, row: number): number => layout.lane1Top + layout.rowHeight * row + layout.rowHeight / 2;

/** y of an app-sequence value in lane 2 (larger values higher). */
export function seqY(layout: Layout, data: TimelineData, value: number): number {
  const range = data.seqMax - data.seqMin;
  const fraction = range > 0 ? (value - data.seqMin) / range : 0.5;
  return layout.lane2Top + layout.lane2Height - 6 - fraction * (layout.lane2Height - 12);
}

/** The smallest canvas height that shows every lane-1 row and a usable lane 2. */
export const minHeightFor = (rows: number): number => layoutOf(0, rows).lane2Top + MIN_LANE2 + 6;
