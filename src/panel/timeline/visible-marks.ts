import { lowerBound, upperBound } from './bounds';
import { MARK_DESYNC, MARK_ERROR, MARK_HAS_ID, MARK_WARNING, type TimelineData } from './marks';
import type { View } from './view';

export interface ListedMark {
  stream: number;
  event: number;
  time: number;
  seq: number;
  hasId: boolean;
  error: boolean;
  warning: boolean;
}

/**
 * The first `max` marks in view, in time order, and how many there are in all. Per stream only
 * the visible slice is read, and only `max` of it.
 */
export function visibleMarks(data: TimelineData, view: View, max: number): { marks: ListedMark[]; total: number } {
  const marks: ListedMark[] = [];
  let total = 0;
  for (const s of data.streams) {
    const lo = lowerBound(s.time, view.start, 0, s.count);
    const hi = upperBound(s.time, view.start + view.span, lo, s.count);
    total += hi - lo;
    for (let i = lo; i < Math.min(hi, lo + max); i++) {
      const f = s.flags[i]!;
      marks.push({ stream: s.stream, event: s.event[i]!, time: s.time[i]!, seq: s.seq[i]!, hasId: (f & MARK_HAS_ID) !== 0, error: (f & (MARK_ERROR | MARK_DESYNC)) !== 0, warning: (f & MARK_WARNING) !== 0 });
    }
  }
  marks.sort((a, b) => a.time - b.time || a.stream - b.stream || a.event - b.event);
  return { marks: marks.slice(0, max), total };
}
