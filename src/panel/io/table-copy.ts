import type { EventRecord, EventTable } from '../../core/index';
import {
  createNames, EVENT_TYPE, HAS_ID, ID_ONLY, KIND_MASK, KIND_SHIFT, METHOD, NAME_FIELDS, NO_NAME, ROLE_MASK, ROLES, SEQ_KEY, SEQ_KINDS, TOKEN, TRUNCATED,
  type RareFields, type TableSlice,
} from './table-slice';

/** A stream's event table on the panel's side, grown from the slices the import worker posts. */
export interface TableCopy extends EventTable {
  /** Takes in a slice that starts where the copy ends; a slice that does not is refused. */
  append(slice: TableSlice): void;
}

/** The ids or data of one slice: the events from `from` on, joined, and where each ends. */
interface TextPiece {
  from: number;
  text: string;
  ends: Int32Array;
}

/** Rows a new copy has room for; it doubles from there. */
const INITIAL_ROWS = 64;

/**
 * A read-only {@link EventTable} the views read as they read the analysis's own: the columns are
 * copied into arrays that double as slices arrive, and ids and data stay in the slices' long
 * strings, cut out only when an event is read. Taking in a slice costs a copy of its columns,
 * with no object per event.
 */
export function createTableCopy(): TableCopy {
  let length = 0;
  let times = new Float64Array(INITIAL_ROWS);
  let seqValues = new Float64Array(INITIAL_ROWS);
  let bits = new Int32Array(INITIAL_ROWS);
  let names = new Int32Array(INITIAL_ROWS * NAME_FIELDS);
  const { strings, numberOf } = createNames();
  const ids: TextPiece[] = [];
  const data: TextPiece[] = [];
  const rare = new Map<number, RareFields>();

  const grow = (rows: number) => {
    let capacity = times.length;
    while (capacity < rows) capacity *= 2;
    if (capacity === times.length) return;
    const widen = <T extends Float64Array | Int32Array>(old: T, next: T): T => (next.set(old), next);
    times = widen(times, new Float64Array(capacity));
    seqValues = widen(seqValues, new Float64Array(capacity));
    bits = widen(bits, new Int32Array(capacity));
    names = widen(names, new Int32Array(capacity * NAME_FIELDS));
  };
  const name = (index: number, field: number): string | undefined => {
    if (!(index >= 0 && index < length)) return undefined;
    const n = names[index * NAME_FIELDS + field]!;
    return n === NO_NAME ? undefined : strings[n];
  };
  const textAt = (pieces: TextPiece[], index: number): string => {
    // The piece that holds `index`, by binary search: a long stream comes in many slices.
    let low = 0;
    let high = pieces.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (pieces[mid]!.from <= index) low = mid;
      else high = mid - 1;
    }
    const piece = pieces[low]!;
    const at = index - piece.from;
    return piece.text.slice(at === 0 ? 0 : piece.ends[at - 1], piece.ends[at]);
  };
  const idAt = (index: number): string | undefined => (index >= 0 && index < length && bits[index]! & HAS_ID ? textAt(ids, index) : undefined);
  const seqKeyAt = (index: number) => name(index, SEQ_KEY);
  const get = (index: number): EventRecord | undefined => {
    if (!(index >= 0 && index < length)) return undefined;
    const b = bits[index]!;
    const key = seqKeyAt(index);
    const extra = rare.get(index);
    return {
      time: times[index]!,
      id: idAt(index),
      event: name(index, EVENT_TYPE),
      data: textAt(data, index),
      retry: extra?.retry,
      idOnly: b & ID_ONLY ? true : undefined,
      truncated: b & TRUNCATED ? true : undefined,
      role: ROLES[b & ROLE_MASK]!,
      method: name(index, METHOD),
      idKey: extra?.idKey,
      seq: key === undefined ? undefined : { key, value: seqValues[index]!, kind: SEQ_KINDS[(b >> KIND_SHIFT) & KIND_MASK]! },
      progressToken: name(index, TOKEN),
      stopReason: extra?.stopReason,
      resumeToken: extra?.resumeToken,
    };
  };

  return {
    get length() {
      return length;
    },
    append(slice) {
      if (slice.from !== length) throw new Error(`a slice from event ${slice.from} cannot follow ${length} events`);
      const count = slice.times.length;
      if (count === 0) return;
      grow(length + count);
      times.set(slice.times, length);
      seqValues.set(slice.seqValues, length);
      bits.set(slice.bits, length);
      // The slice numbers its strings on its own; the copy keeps one numbering.
      const own = slice.strings.map((text) => numberOf(text));
      const start = length * NAME_FIELDS;
      for (let i = 0; i < slice.names.length; i++) {
        const n = slice.names[i]!;
        names[start + i] = n === NO_NAME ? NO_NAME : own[n]!;
      }
      ids.push({ from: length, text: slice.ids, ends: slice.idEnds });
      data.push({ from: length, text: slice.data, ends: slice.dataEnds });
      for (const [at, fields] of slice.rare) rare.set(length + at, fields);
      length += count;
    },
    get,
    findIndex(test) {
      for (let i = 0; i < length; i++) if (test(get(i)!, i)) return i;
      return -1;
    },
    *[Symbol.iterator]() {
      for (let i = 0; i < length; i++) yield get(i)!;
    },
    timeAt: (index) => (index >= 0 && index < length ? times[index]! : NaN),
    idAt,
    hasId: (index) => index >= 0 && index < length && (bits[index]! & HAS_ID) !== 0,
    roleAt: (index) => ROLES[bits[index]! & ROLE_MASK]!,
    methodAt: (index) => name(index, METHOD),
    seqKeyAt,
    seqValueAt: (index) => (index >= 0 && index < length ? seqValues[index]! : NaN),
    resumeTokenAt: (index) => rare.get(index)?.resumeToken,
    idKeyAt: (index) => rare.get(index)?.idKey,
    progressTokenAt: (index) => name(index, TOKEN),
  };
}
