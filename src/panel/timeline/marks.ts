import type { Verdict } from '../../core/index';
import { buildPyramid, orIntoPyramid, seqRange, type Pyramid } from './pyramid';

/** Flag bits of one mark. */
export const MARK_HAS_ID = 1;
/** An error finding points at this event. */
export const MARK_ERROR = 2;
export const MARK_WARNING = 4;
/** Part of a desync: the last event before a bad resume boundary or the first one after it. */
export const MARK_DESYNC = 8;

/**
 * One stream's marks in typed arrays, in arrival order, so a frame touches only the slice in view
 * (found by binary search on `time`) and a million events cost a few megabytes, not objects.
 */
export interface StreamMarks {
  /** The report's stream index. */
  stream: number;
  /** Lane-1 row; streams that do not overlap in time share one. */
  row: number;
  /** Palette slot of the stream's colour. */
  colour: number;
  /** Request start and body end (or last activity), ms since the timeline origin. */
  start: number;
  end: number;
  /** A finding about the stream as a whole (event null) is an error. */
  streamError: boolean;
  count: number;
  /** Arrival times, ms since the origin, non-decreasing. */
  time: Float64Array;
  /** Application-sequence value, NaN where the event has none. */
  seq: Float64Array;
  /** Index into `seqKeys`, -1 where there is no value. */
  seqKey: Int32Array;
  /** This stream's application-sequence keys (`app_seq`, a progress token...). */
  seqKeys: readonly string[];
  /** The event's index within its stream (filters may leave some out). */
  event: Uint32Array;
  flags: Uint8Array;
  pyramid: Pyramid;
}

/** How a resume boundary is coloured: by the worst finding about it, else by its verdict. */
export type ResumeTone = 'ok' | 'error' | 'warning' | 'info';

/** A resume boundary: the GET that sent `Last-Event-ID`. */
export interface ResumeMark {
  stream: number;
  of: number | null;
  /** When the resume was sent, ms since the origin. */
  time: number;
  lastEventId: string;
  status: number;
  verdict: Verdict;
  /** The two sequences stopped advancing together here (or an error finding says so). */
  bad: boolean;
  tone: ResumeTone;
  /**
   * The boundary's arithmetic: the last value seen before it, what the rule expected next and
   * what came. From the finding's evidence; `lastSeen` and `got` otherwise from the values drawn
   * on either side (a genuine resume has no finding to give them).
   */
  lastSeen?: string | number;
  expected?: string | number;
  got?: string | number;
}

/** One end of a bridge: an event, where it is drawn, and its app-sequence value (NaN: none). */
export interface BridgeEnd {
  stream: number;
  event: number;
  time: number;
  seq: number;
}

/**
 * What joins the two sides of a resume: from the event that delivered `Last-Event-ID` to the
 * first replayed event. Red where the sequences stop advancing together (`bad`), green otherwise.
 */
export interface BridgeMark {
  resume: number;
  bad: boolean;
  from: BridgeEnd;
  to: BridgeEnd;
}

export interface TimelineData {
  /** Epoch ms of time 0: the session's first request. */
  origin: number;
  streams: StreamMarks[];
  rows: number;
  seqKeys: string[];
  /** Range of app-sequence values (NaN when the session has none). */
  seqMin: number;
  seqMax: number;
  /** Time extent of everything drawn, ms since the origin. */
  start: number;
  end: number;
  total: number;
  resumes: ResumeMark[];
  bridges: BridgeMark[];
  /** What the x axis counts: arrival time (ms), or the session's events in arrival order. */
  axis: 'time' | 'order';
}

/** Lane-1 rows at most; past it streams share rows and are told apart by colour. */
export const MAX_ROWS = 6;

/** The raw arrays of one stream before rows and aggregates are assigned. */
export type StreamArrays = Omit<StreamMarks, 'row' | 'colour' | 'pyramid'>;

/** Finishes the streams: rows by interval packing, colours by order, LOD pyramids. */
export function assemble(origin: number, arrays: StreamArrays[], resumes: ResumeMark[], bridges: BridgeMark[]): TimelineData {
  const seqKeys = [...new Set(arrays.flatMap((a) => a.seqKeys))];
  const rowEnds: number[] = [];
  let seqMin = NaN;
  let seqMax = NaN;
  let start = Infinity;
  let end = -Infinity;
  let total = 0;
  const streams = arrays.map((a, order): StreamMarks => {
    const pyramid = pyramidOf(a);
    // From the pyramid's blocks, not a pass over every mark: this runs on each live refresh.
    const range = seqRange(a.seq, pyramid, a.count);
    // NaN: the stream has no sequence value, and must not reset what other streams found.
    if (range.min === range.min && !(range.min >= seqMin)) seqMin = range.min;
    if (range.max === range.max && !(range.max <= seqMax)) seqMax = range.max;
    start = Math.min(start, a.start);
    end = Math.max(end, a.end);
    total += a.count;
    return { ...a, row: packRow(rowEnds, a.start, a.end), colour: order, pyramid };
  });
  for (const r of resumes) (start = Math.min(start, r.time)), (end = Math.max(end, r.time));
  if (start === Infinity) (start = 0), (end = 0);
  return { origin, streams, rows: Math.max(1, rowEnds.length), seqKeys, seqMin, seqMax, start, end, total, resumes, bridges, axis: 'time' };
}

/**
 * Pyramids are kept per stream arrays object: reused arrays (an ended stream on a live refresh)
 * reuse their pyramid, and a growing stream's builder hands over the one it extended.
 */
const pyramids = new WeakMap<StreamArrays, Pyramid>();
function pyramidOf(a: StreamArrays): Pyramid {
  let pyramid = pyramids.get(a);
  if (!pyramid) pyramids.set(a, (pyramid = buildPyramid(a.seq, a.flags, a.count)));
  return pyramid;
}
export function keepPyramid(a: StreamArrays, pyramid: Pyramid): void {
  pyramids.set(a, pyramid);
}
/** Sets flag bits on mark `i` of `a`, in its kept pyramid too (a desync found after the build). */
export function addFlags(a: StreamArrays, i: number, bits: number): void {
  a.flags[i] = a.flags[i]! | bits;
  const pyramid = pyramids.get(a);
  if (pyramid) orIntoPyramid(pyramid, i, bits);
}

function packRow(rowEnds: number[], start: number, end: number): number {
  let row = rowEnds.findIndex((e) => e < start);
  if (row < 0 && rowEnds.length < MAX_ROWS) row = rowEnds.length;
  // Every row busy: share the one that frees up first.
  if (row < 0) row = rowEnds.indexOf(Math.min(...rowEnds));
  rowEnds[row] = Math.max(rowEnds[row] ?? -Infinity, end);
  return row;
}
