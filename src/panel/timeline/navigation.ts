import { lowerBound, upperBound } from './bounds';
import type { TimelineData } from './marks';

export interface MarkRef {
  stream: number;
  event: number;
}

interface Position {
  slot: number;
  i: number;
}

function positionOf(data: TimelineData, ref: MarkRef): Position | undefined {
  const slot = data.streams.findIndex((s) => s.stream === ref.stream);
  if (slot < 0) return undefined;
  const s = data.streams[slot]!;
  const i = lowerBound(s.event, ref.event, 0, s.count);
  return i < s.count && s.event[i] === ref.event ? { slot, i } : undefined;
}

const refAt = (data: TimelineData, p: Position): MarkRef => ({ stream: data.streams[p.slot]!.stream, event: data.streams[p.slot]!.event[p.i]! });

/**
 * The mark after (`step` 1) or before (`step` -1) `from` in time order; ties are broken by stream
 * order, then by arrival. One binary search per stream: O(streams · log n).
 */
export function stepMark(data: TimelineData, from: MarkRef | null, step: 1 | -1): MarkRef | null {
  const current = from ? positionOf(data, from) : undefined;
  if (!current) return firstOrLast(data, step);
  const t = data.streams[current.slot]!.time[current.i]!;
  let best: Position | null = null;
  let bestTime = step === 1 ? Infinity : -Infinity;
  data.streams.forEach((s, slot) => {
    let i: number;
    if (slot === current.slot) i = current.i + step;
    else if (step === 1) i = slot > current.slot ? lowerBound(s.time, t, 0, s.count) : upperBound(s.time, t, 0, s.count);
    else i = (slot < current.slot ? upperBound(s.time, t, 0, s.count) : lowerBound(s.time, t, 0, s.count)) - 1;
    if (i < 0 || i >= s.count) return;
    const candidate = s.time[i]!;
    // Strictly better time wins; on a tie the lower slot wins going forward, the higher going back.
    const better = step === 1 ? candidate < bestTime : candidate > bestTime || (candidate === bestTime && best !== null);
    if (better) (best = { slot, i }), (bestTime = candidate);
  });
  return best ? refAt(data, best) : null;
}

function firstOrLast(data: TimelineData, step: 1 | -1): MarkRef | null {
  let best: Position | null = null;
  let bestTime = step === 1 ? Infinity : -Infinity;
  data.streams.forEach((s, slot) => {
    if (s.count === 0) return;
    const i = step === 1 ? 0 : s.count - 1;
    const t = s.time[i]!;
    if (step === 1 ? t < bestTime : t >= bestTime) (best = { slot, i }), (bestTime = t);
  });
  return best ? refAt(data, best) : null;
}

/** The time of a mark, ms since the origin, or undefined when it is filtered out. */
export function timeOfMark(data: TimelineData, ref: MarkRef): number | undefined {
  const p = positionOf(data, ref);
  return p ? data.streams[p.slot]!.time[p.i] : undefined;
}
