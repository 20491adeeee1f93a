import type { EventRecord, EventTable } from '../../core/index';

type Role = EventRecord['role'];
type SeqKind = NonNullable<EventRecord['seq']>['kind'];

/**
 * Each role's number in {@link TableSlice.bits}. A record, so a role added to the core and not
 * here is a type error rather than an event read back with the wrong role.
 */
const ROLE_NUMBERS: Record<Role, number> = { request: 0, notification: 1, progress: 2, result: 3, error: 4, endpoint: 5, empty: 6, malformed: 7, truncated: 8 };
const KIND_NUMBERS: Record<SeqKind, number> = { app_seq: 0, progress: 1, pointer: 2 };
export const ROLES = Object.keys(ROLE_NUMBERS) as Role[];
export const SEQ_KINDS = Object.keys(KIND_NUMBERS) as SeqKind[];

// `bits`: role (4 bits), sequence kind (2 bits), then flags.
export const ROLE_MASK = 0b1111;
export const KIND_SHIFT = 4;
export const KIND_MASK = 0b11;
export const ID_ONLY = 1 << 6;
export const TRUNCATED = 1 << 7;
export const HAS_ID = 1 << 8;
/** `names` holds this many numbers per event, in this order. */
export const NAME_FIELDS = 4;
export const EVENT_TYPE = 0;
export const METHOD = 1;
export const SEQ_KEY = 2;
export const TOKEN = 3;
/** A `names` number for a field the event does not set. */
export const NO_NAME = -1;

/** The fields few events set, kept beside the columns. */
export type RareFields = Pick<EventRecord, 'retry' | 'idKey' | 'stopReason' | 'resumeToken'>;

/**
 * Events `from` onward of one stream's table, as the import worker posts them to the panel: a few
 * typed arrays (moved, not copied, by `postMessage`) and a few long strings, whatever the count.
 * An array of records would cost the panel's main thread an object per event to take in.
 * {@link createTableCopy} (table-copy.ts) is the one reader.
 */
export interface TableSlice {
  stream: number;
  from: number;
  times: Float64Array<ArrayBuffer>;
  /** NaN where the event carries no application-sequence value. */
  seqValues: Float64Array<ArrayBuffer>;
  bits: Int32Array<ArrayBuffer>;
  /** {@link NAME_FIELDS} numbers per event, each an index into `strings` or {@link NO_NAME}. */
  names: Int32Array<ArrayBuffer>;
  strings: string[];
  /** The events' ids one after another, and where each ends in it (an event without one ends where the last did). */
  ids: string;
  idEnds: Int32Array<ArrayBuffer>;
  data: string;
  dataEnds: Int32Array<ArrayBuffer>;
  /** [event index in the slice, its rare fields], for the events that set any. */
  rare: [number, RareFields][];
}

/** Strings numbered in the order first seen, as `names` refers to them; `undefined` is {@link NO_NAME}. */
export function createNames(): { strings: string[]; numberOf(text: string | undefined): number } {
  const strings: string[] = [];
  const numbers = new Map<string, number>();
  return {
    strings,
    numberOf(text) {
      if (text === undefined) return NO_NAME;
      let n = numbers.get(text);
      if (n === undefined) numbers.set(text, (n = strings.push(text) - 1));
      return n;
    },
  };
}

/** Events `from` to `to` (exclusive) of `table` as a slice of stream `stream`. */
export function sliceOf(stream: number, table: EventTable, from: number, to: number): TableSlice {
  const count = to - from;
  const times = new Float64Array(count);
  const seqValues = new Float64Array(count);
  const bits = new Int32Array(count);
  const names = new Int32Array(count * NAME_FIELDS);
  const { strings, numberOf } = createNames();
  const ids: string[] = [];
  const idEnds = new Int32Array(count);
  const data: string[] = [];
  const dataEnds = new Int32Array(count);
  const rare: [number, RareFields][] = [];
  let idLength = 0;
  let dataLength = 0;
  for (let i = 0; i < count; i++) {
    const record = table.get(from + i)!;
    times[i] = record.time;
    seqValues[i] = record.seq ? record.seq.value : NaN;
    bits[i] = ROLE_NUMBERS[record.role] | (record.seq ? KIND_NUMBERS[record.seq.kind] << KIND_SHIFT : 0)
      | (record.idOnly ? ID_ONLY : 0) | (record.truncated ? TRUNCATED : 0) | (record.id !== undefined ? HAS_ID : 0);
    const at = i * NAME_FIELDS;
    names[at + EVENT_TYPE] = numberOf(record.event);
    names[at + METHOD] = numberOf(record.method);
    names[at + SEQ_KEY] = numberOf(record.seq?.key);
    names[at + TOKEN] = numberOf(record.progressToken);
    if (record.id !== undefined) ids.push(record.id), (idLength += record.id.length);
    idEnds[i] = idLength;
    data.push(record.data);
    dataLength += record.data.length;
    dataEnds[i] = dataLength;
    const { retry, idKey, stopReason, resumeToken } = record;
    if (retry !== undefined || idKey !== undefined || stopReason !== undefined || resumeToken !== undefined) rare.push([i, { retry, idKey, stopReason, resumeToken }]);
  }
  return { stream, from, times, seqValues, bits, names, strings, ids: ids.join(''), idEnds, data: data.join(''), dataEnds, rare };
}

/** What `postMessage` should move rather than copy. */
export function transferOf(slice: TableSlice): ArrayBuffer[] {
  return [slice.times.buffer, slice.seqValues.buffer, slice.bits.buffer, slice.names.buffer, slice.idEnds.buffer, slice.dataEnds.buffer];
}
