import { lowerBound } from './bounds';
import type { BridgeEnd, StreamMarks, TimelineData } from './marks';

/**
 * More marks than this on one pixel column is a burst the time axis cannot show: the panel then
 * opens on event order (unless the user chose an axis).
 */
export const MAX_MARKS_PER_COLUMN = 3;

/**
 * Whether event order shows `data` better than time on `width` pixels: some pixel column of the
 * fitted time axis stacks more than MAX_MARKS_PER_COLUMN marks, and in event order none would.
 * A session too large for that is left on time (event order would stack it just the same), so
 * the count runs over MAX_MARKS_PER_COLUMN * width marks at most.
 */
export function prefersEventOrder(data: TimelineData, width: number): boolean {
  if (data.total <= MAX_MARKS_PER_COLUMN || data.total > MAX_MARKS_PER_COLUMN * width) return false;
  const span = Math.max(data.end - data.start, 1e-9);
  const perColumn = new Uint16Array(width);
  for (const s of data.streams) {
    for (let i = 0; i < s.count; i++) {
      const c = Math.min(width - 1, Math.floor(((s.time[i]! - data.start) / span) * (width - 1)));
      if (++perColumn[c]! > MAX_MARKS_PER_COLUMN) return true;
    }
  }
  return false;
}

/**
 * Each mark's place in the session's arrival order (ties by stream order), per stream, and the
 * arrival times in that order. Each stream is already in time order, so this is a merge: every
 * mark takes the earliest head among the streams, O(marks · streams), no sort.
 */
function ranks(streams: readonly StreamMarks[]): { perStream: Float64Array[]; times: Float64Array } {
  let total = 0;
  for (const s of streams) total += s.count;
  const perStream = streams.map((s) => new Float64Array(s.count));
  const heads = new Uint32Array(streams.length);
  const times = new Float64Array(total);
  for (let rank = 0; rank < total; rank++) {
    let best = -1;
    for (let k = 0; k < streams.length; k++) {
      const at = heads[k]!;
      if (at < streams[k]!.count && (best < 0 || streams[k]!.time[at]! < streams[best]!.time[heads[best]!]!)) best = k;
    }
    const at = heads[best]!++;
    perStream[best]![at] = rank;
    times[rank] = streams[best]!.time[at]!;
  }
  return { perStream, times };
}

/**
 * The same data on an event-order axis: mark k of the session (in arrival order) stands at
 * x = k, so a burst that arrived within one millisecond is spread out like any other. A resume
 * stands between the last event before it and the first after (and after the event whose id it
 * sends); a stream's bar spans its events.
 */
export function toEventOrder(data: TimelineData): TimelineData {
  const { perStream, times } = ranks(data.streams);
  // Half-way between the events on either side of a moment in time.
  const place = (time: number): number => lowerBound(times, time) - 0.5;
  const streams = data.streams.map((s, k): StreamMarks => {
    const rank = perStream[k]!;
    const start = s.count > 0 ? Math.min(rank[0]!, place(s.start)) : place(s.start);
    const end = s.count > 0 ? Math.max(rank[s.count - 1]!, start) : start;
    return { ...s, time: rank, start, end };
  });
  const rankOf = (end: BridgeEnd): number => {
    const k = data.streams.findIndex((s) => s.stream === end.stream);
    if (k < 0) return place(end.time);
    const i = lowerBound(data.streams[k]!.event, end.event, 0, data.streams[k]!.count);
    return data.streams[k]!.event[i] === end.event ? perStream[k]![i]! : place(end.time);
  };
  return {
    ...data,
    axis: 'order',
    streams,
    start: -0.5,
    end: Math.max(times.length - 0.5, 0.5),
    // Never before the event whose id it sends (clocks of separate requests can disagree).
    resumes: data.resumes.map((r) => {
      const bridge = data.bridges.find((b) => b.resume === r.stream);
      return { ...r, time: bridge ? Math.max(place(r.time), rankOf(bridge.from) + 0.5) : place(r.time) };
    }),
    bridges: data.bridges.map((b) => ({ ...b, from: { ...b.from, time: rankOf(b.from) }, to: { ...b.to, time: rankOf(b.to) } })),
  };
}
