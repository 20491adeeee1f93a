import type { EventTable, StreamReport } from '../../core/index';
import { keepPyramid, MARK_HAS_ID, type StreamArrays } from './marks';
import { createPyramidBuilder } from './pyramid';
import type { SessionInput } from './session-marks';

/** What a stream's arrays are built from, besides its events. */
export interface StreamArraysSpec {
  stream: StreamReport;
  include: SessionInput['include'];
  origin: number;
  start: number;
  eventFlags: ReadonlyMap<number, number> | undefined;
  streamError: boolean;
}

/**
 * One stream's timeline arrays, grown as its events arrive. A live stream of a long session
 * holds 10^5 events; a refresh appends the new ones instead of rebuilding them all (buffers
 * double, so appending costs O(1) per event). The views handed out are exact-length subarrays.
 */
export function createStreamArrays(spec: StreamArraysSpec) {
  // Keys are numbered per stream, so a stream's arrays stay valid when they are reused.
  const seqKeys: string[] = [];
  const keyIndex = new Map<string, number>();
  let time = new Float64Array(64);
  let seq = new Float64Array(64);
  let seqKey = new Int32Array(64);
  let event = new Uint32Array(64);
  let flags = new Uint8Array(64);
  let count = 0;
  let scanned = 0;
  let last = spec.start;
  const pyramid = createPyramidBuilder();

  const grow = () => {
    const size = time.length * 2;
    const widen = <T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(old: T, next: T): T => (next.set(old), next);
    time = widen(time, new Float64Array(size));
    seq = widen(seq, new Float64Array(size));
    seqKey = widen(seqKey, new Int32Array(size));
    event = widen(event, new Uint32Array(size));
    flags = widen(flags, new Uint8Array(size));
  };

  return {
    /** Takes in the events not seen yet and returns the arrays as they now stand. */
    update(events: EventTable, ended: number | undefined): StreamArrays {
      const { stream, include, origin, eventFlags } = spec;
      // Columns, not records: only a filter needs the whole record.
      for (let index = scanned; index < events.length; index++) {
        if (include && !include(stream, events.get(index)!, index)) continue;
        if (count === time.length) grow();
        // Arrival clocks can step back (a system clock change); binary search needs order.
        last = Math.max(last, events.timeAt(index) - origin);
        time[count] = last;
        event[count] = index;
        const key = events.seqKeyAt(index);
        if (key !== undefined) {
          let k = keyIndex.get(key);
          if (k === undefined) keyIndex.set(key, (k = seqKeys.push(key) - 1));
          seq[count] = events.seqValueAt(index);
          seqKey[count] = k;
        } else {
          seq[count] = NaN;
          seqKey[count] = -1;
        }
        flags[count] = (events.hasId(index) ? MARK_HAS_ID : 0) | (eventFlags?.get(index) ?? 0);
        count++;
      }
      scanned = events.length;
      const arrays: StreamArrays = {
        stream: stream.index, start: spec.start, end: Math.max(last, ended === undefined ? last : ended - origin), count,
        streamError: spec.streamError, seqKeys: [...seqKeys],
        time: time.subarray(0, count), seq: seq.subarray(0, count), seqKey: seqKey.subarray(0, count),
        event: event.subarray(0, count), flags: flags.subarray(0, count),
      };
      // The pyramid grows with the arrays: only blocks completed by the new marks are computed.
      keepPyramid(arrays, pyramid.extend(seq, flags, count));
      return arrays;
    },
  };
}

export type StreamArraysBuilder = ReturnType<typeof createStreamArrays>;
