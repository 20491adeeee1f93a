import type { TimelineData } from './marks';

/**
 * Where everything stands on the canvas, top to bottom: a band for the resume labels (real
 * elements laid over the canvas), the time axis, lane 1 (a row per stream row), the title of
 * lane 2, lane 2. Left of the plot, a gutter holds the lane titles and lane 2's value scale, so
 * no title or scale label ever stands on a mark or its label.
 */
export interface Layout {
  width: number;
  height: number;
  /** The plot: marks, axis ticks and labels stand between these x (CSS px). */
  plotLeft: number;
  plotWidth: number;
  bandHeight: number;
  axisTop: number;
  axisHeight: number;
  lane1Top: number;
  rowHeight: number;
  lane1Height: number;
  lane2Top: number;
  lane2Height: number;
}

/** Room for the lane titles and the value scale. */
export const GUTTER_PX = 64;
/** Room right of the plot, so the last mark of a fitted view is not on the edge. */
export const RIGHT_PX = 12;
/** One row of resume labels. */
export const BAND_ROW_PX = 22;
/** Rows of resume labels at most; a label that fits in none is shortened (see resume-labels.ts). */
export const MAX_BAND_ROWS = 2;
export const AXIS_HEIGHT = 16;
const ROW_HEIGHT = 16;
/** Between the lanes: lane 2's title stands here. */
const LANE_GAP = 16;
const LANE_PAD = 4;
const MIN_LANE2 = 56;
/** Inside lane 2, above its highest value and below its lowest. */
export const SEQ_PAD = 7;

/** Rows of resume labels a session needs: one per resume, up to MAX_BAND_ROWS, at least one. */
export const bandRowsFor = (resumes: number): number => Math.min(MAX_BAND_ROWS, Math.max(1, resumes));

export function layoutOf(width: number, height: number, rows: number, bandRows = 1): Layout {
  const bandHeight = BAND_ROW_PX * bandRows;
  const axisTop = bandHeight;
  const lane1Top = axisTop + AXIS_HEIGHT + LANE_PAD;
  const lane1Height = Math.max(ROW_HEIGHT * rows, ROW_HEIGHT);
  const lane2Top = lane1Top + lane1Height + LANE_PAD + LANE_GAP;
  return {
    width,
    height,
    plotLeft: GUTTER_PX,
    plotWidth: Math.max(1, width - GUTTER_PX - RIGHT_PX),
    bandHeight,
    axisTop,
    axisHeight: AXIS_HEIGHT,
    lane1Top,
    rowHeight: ROW_HEIGHT,
    lane1Height,
    lane2Top,
    lane2Height: Math.max(MIN_LANE2, height - lane2Top - LANE_PAD),
  };
}

export const rowY = (layout: Layout, row: number): number => layout.lane1Top + layout.rowHeight * row + layout.rowHeight / 2;

/** y of an app-sequence value in lane 2 (larger values higher). */
export function seqY(layout: Layout, data: TimelineData, value: number): number {
  const range = data.seqMax - data.seqMin;
  const fraction = range > 0 ? (value - data.seqMin) / range : 0.5;
  return layout.lane2Top + layout.lane2Height - SEQ_PAD - fraction * (layout.lane2Height - 2 * SEQ_PAD);
}

/** The smallest canvas height that shows every lane-1 row and a usable lane 2. */
export const minHeightFor = (rows: number, bandRows = 1): number => {
  const l = layoutOf(0, 0, rows, bandRows);
  return l.lane2Top + MIN_LANE2 + LANE_PAD;
};
