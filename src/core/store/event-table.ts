import type { MessageFacts } from '../read/facts';
import type { SeqValue } from '../read/sequence';
import type { ChunkPlace, SseEvent } from '../read/sse';
import type { EventRecord } from '../analysis/state';
import type { StringTable } from './string-table';
import { RowBuffers, type RowRegion } from './row-buffers';
import type { TextStore } from './text-store';

type Role = EventRecord['role'];

/**
 * The events of one stream. A session keeps every event for hours, so this is where the
 * analysis's memory goes: the events are stored as columns of typed arrays, with their `id` and
 * `data` in the analysis's {@link TextStore}, not as one object each.
 * {@link EventTable.get} builds the documented {@link EventRecord} for the few events someone
 * reads. Hot loops read single columns instead.
 */
export interface EventTable extends Iterable<EventRecord> {
  readonly length: number;
  /** Event `index` as a record, built on each call; undefined out of range. */
  get(index: number): EventRecord | undefined;
  findIndex(test: (record: EventRecord, index: number) => boolean): number;
  timeAt(index: number): number;
  idAt(index: number): string | undefined;
  /** Whether the event set an id; cheaper than reading it. */
  hasId(index: number): boolean;
  roleAt(index: number): Role;
  methodAt(index: number): string | undefined;
  /** The sequence key, or undefined when the event carries no application-sequence value. */
  seqKeyAt(index: number): string | undefined;
  seqValueAt(index: number): number;
  resumeTokenAt(index: number): string | undefined;
  idKeyAt(index: number): string | undefined;
  progressTokenAt(index: number): string | undefined;
}

/** An event's SSE fields but its data, which comes separately (see {@link EventTableWriter.append}). */
export type EventHead = Omit<SseEvent, 'data'>;

/** A table the analysis fills: the one door through which an event's fields reach storage. */
export interface EventTableWriter extends EventTable {
  /**
   * Adds an event and returns its index. Its data is `text` itself, or stands in a chunk at a
   * {@link ChunkPlace} (the table then keeps the place where it can, rather than a copy); so does
   * its id, when the place says where.
   */
  append(head: EventHead, text: string | ChunkPlace, facts: MessageFacts): number;
  /** The stream ended: no more events, so spare room can go. */
  trim(): void;
}

const ROLES: readonly Role[] = ['request', 'notification', 'progress', 'result', 'error', 'endpoint', 'empty', 'malformed', 'truncated'];
const KINDS: readonly SeqValue['kind'][] = ['app_seq', 'progress', 'pointer'];

// `bits`: role (4 bits), sequence kind (2 bits), idOnly, truncated.
const ROLE_MASK = 0b1111;
const KIND_SHIFT = 4;
const ID_ONLY = 1 << 6;
const TRUNCATED = 1 << 7;
const NONE = -1;
/** Rows a new table has room for: a tool call streams dozens to hundreds of events. */
const INITIAL_ROWS = 64;

/**
 * Fields most events never set: kept in a side map, so common events pay nothing for them. (The
 * `event:` type is not one: the SDK's servers name `message` on every event.)
 */
interface Rare {
  idKey: string | undefined;
  retry: number | undefined;
  stopReason: string | undefined;
  resumeToken: string | undefined;
}

// Each row is two Float64s (time, sequence value) and `stride` Int32s, at these offsets. `id` and
// `data` are in the analysis's text store: where each starts and how long it is there (-1: none,
// or kept as a string in `looseIds`/`looseData`). A table that keeps no data has no data columns.
const BITS = 0;
const SEQ_KEY = 1;
const METHOD = 2;
const TOKEN = 3;
const EVENT_TYPE = 4;
const ID_AT = 5;
const ID_LENGTH = 6;
const DATA_AT = 7;
const DATA_LENGTH = 8;
const INTS_WITH_DATA = 9;
const INTS_WITHOUT_DATA = 7;
/**
 * A stored id may keep only what follows the prefix it shares with the previous row's id: a
 * stream's ids mostly differ in their last characters (`<stream>_<counter>`). Its ID_LENGTH is
 * then `~(ownLength | shared << SHARED_SHIFT)`, negative. Every RESTART-th row stores its id
 * whole, so reading one back decodes at most RESTART ids.
 */
const RESTART = 16;
const SHARED_SHIFT = 15;
const SHARE_LIMIT = 1 << SHARED_SHIFT;

export class EventColumns implements EventTableWriter {
  length = 0;
  private capacity = INITIAL_ROWS;
  /**
   * The rows, in one region of memory per table: a stream's table grows a few times, and a buffer
   * per column per growth cost more than filling them (ArrayBuffers are slow to make; see
   * RowBuffers, which also reuses the regions tables outgrow).
   */
  private region!: RowRegion;
  private floats!: Float64Array<ArrayBuffer>;
  private ints!: Int32Array<ArrayBuffer>;
  /** Ids and data the store cannot hold (see `TextStore.add`). */
  private readonly looseIds = new Map<number, string>();
  private readonly looseData = new Map<number, string>();
  private readonly rare = new Map<number, Rare>();
  /**
   * The last string of each string-table field and its number: a stream repeats its method, event
   * type, sequence key and token on every event, and comparing with the last is cheaper than
   * looking the string up.
   */
  private readonly lastStrings: (string | undefined)[] = [];
  private readonly lastNumbers: number[] = [];
  /** Int32s per row. */
  private readonly stride: number;
  /**
   * The previous row's id, which the next id may share a prefix with; dropped when the stream
   * ends (it may be a slice that keeps its whole chunk alive).
   */
  private lastId: string | undefined;

  constructor(
    private readonly strings: StringTable,
    private readonly text: TextStore,
    private readonly buffers: RowBuffers,
    /** Whether events keep their data (see AnalysisOptions.keepPayloads); their ids are always kept. */
    private readonly keepData = true,
  ) {
    this.stride = keepData ? INTS_WITH_DATA : INTS_WITHOUT_DATA;
    this.allocate(INITIAL_ROWS);
  }

  append(head: EventHead, text: string | ChunkPlace, facts: MessageFacts): number {
    const i = this.length;
    if (i === this.capacity) this.grow();
    const { floats, ints } = this;
    const { seq } = facts;
    floats[i * 2] = head.time;
    floats[i * 2 + 1] = seq ? seq.value : NaN;
    const row = i * this.stride;
    ints[row + BITS] = ROLES.indexOf(facts.role) | (seq ? KINDS.indexOf(seq.kind) << KIND_SHIFT : 0) | (head.idOnly ? ID_ONLY : 0) | (head.truncated ? TRUNCATED : 0);
    ints[row + SEQ_KEY] = this.numberOf(seq?.key, SEQ_KEY);
    ints[row + METHOD] = this.numberOf(facts.method, METHOD);
    ints[row + TOKEN] = this.numberOf(facts.progressToken, TOKEN);
    ints[row + EVENT_TYPE] = this.numberOf(head.event, EVENT_TYPE);
    // Where the chunk stands in the text store: the event's text is then kept as positions in it.
    // Without payloads, no chunk is kept: the id is copied instead.
    const base = !this.keepData || typeof text === 'string' || text.chunk === undefined ? -1 : this.text.borrow(text.chunk);
    const { id } = head;
    const idAt = base >= 0 && id !== undefined && typeof text !== 'string' && text.idAt >= 0 ? base + text.idAt : -1;
    ints[row + ID_AT] = idAt >= 0 ? this.store(id, idAt, id!.length, row + ID_LENGTH, i, this.looseIds) : this.storeId(id, row, i);
    this.lastId = id;
    if (this.keepData) {
      if (typeof text === 'string') ints[row + DATA_AT] = this.store(text || undefined, -1, 0, row + DATA_LENGTH, i, this.looseData);
      else if (base >= 0) ints[row + DATA_AT] = this.store(undefined, base + text.dataAt, text.dataLength, row + DATA_LENGTH, i, this.looseData);
      else ints[row + DATA_AT] = this.store(text.text.slice(text.dataAt, text.dataAt + text.dataLength) || undefined, -1, 0, row + DATA_LENGTH, i, this.looseData);
    }
    if (facts.idKey !== undefined || head.retry !== undefined || facts.stopReason !== undefined || facts.resumeToken !== undefined) {
      // Copies: a string from the payload may be a slice that would keep its whole decoded chunk
      // alive for the session's life (see json-shapes.ts); the text store keeps the rest.
      this.rare.set(i, { idKey: facts.idKey, retry: head.retry, stopReason: own(facts.stopReason), resumeToken: own(facts.resumeToken) });
    }
    this.length = i + 1;
    return i;
  }

  get(index: number): EventRecord | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const bits = this.ints[index * this.stride + BITS]!;
    const rare = this.rare.get(index);
    return {
      time: this.floats[index * 2]!,
      id: this.idAt(index),
      event: this.stringAt(EVENT_TYPE, index),
      data: this.dataOf(index),
      retry: rare?.retry,
      idOnly: bits & ID_ONLY ? true : undefined,
      truncated: bits & TRUNCATED ? true : undefined,
      role: ROLES[bits & ROLE_MASK]!,
      method: this.methodAt(index),
      idKey: rare?.idKey,
      seq: this.seqAt(index, bits),
      progressToken: this.progressTokenAt(index),
      stopReason: rare?.stopReason,
      resumeToken: rare?.resumeToken,
    };
  }

  findIndex(test: (record: EventRecord, index: number) => boolean): number {
    for (let i = 0; i < this.length; i++) if (test(this.get(i)!, i)) return i;
    return -1;
  }

  *[Symbol.iterator](): Iterator<EventRecord> {
    for (let i = 0; i < this.length; i++) yield this.get(i)!;
  }

  timeAt(index: number): number {
    return this.floats[index * 2]!;
  }
  idAt(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const row = index * this.stride;
    const at = this.ints[row + ID_AT]!;
    if (at < 0) return this.looseIds.get(index);
    const length = this.ints[row + ID_LENGTH]!;
    if (length >= 0) return this.text.text(at, length);
    const shared = ~length >>> SHARED_SHIFT;
    return this.idAt(index - 1)!.slice(0, shared) + this.text.text(at, ~length & (SHARE_LIMIT - 1));
  }
  hasId(index: number): boolean {
    return index >= 0 && index < this.length && (this.ints[index * this.stride + ID_AT]! >= 0 || this.looseIds.has(index));
  }
  dataOf(index: number): string {
    if (!this.keepData) return '';
    return this.read(index, DATA_AT, DATA_LENGTH, this.looseData) ?? '';
  }
  roleAt(index: number): Role {
    return ROLES[this.ints[index * this.stride + BITS]! & ROLE_MASK]!;
  }
  methodAt(index: number): string | undefined {
    return this.stringAt(METHOD, index);
  }
  seqKeyAt(index: number): string | undefined {
    return this.stringAt(SEQ_KEY, index);
  }
  seqValueAt(index: number): number {
    return this.floats[index * 2 + 1]!;
  }
  resumeTokenAt(index: number): string | undefined {
    return this.rare.get(index)?.resumeToken;
  }
  idKeyAt(index: number): string | undefined {
    return this.rare.get(index)?.idKey;
  }
  progressTokenAt(index: number): string | undefined {
    return this.stringAt(TOKEN, index);
  }

  /** The string a string-table field holds for event `index`; undefined for none or out of range. */
  private stringAt(field: number, index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const at = this.ints[index * this.stride + field]!;
    return at === NONE ? undefined : this.strings.at(at);
  }

  private numberOf(text: string | undefined, field: number): number {
    if (text === undefined) return NONE;
    if (text === this.lastStrings[field]) return this.lastNumbers[field]!;
    const number = this.strings.indexOf(text);
    this.lastStrings[field] = text;
    this.lastNumbers[field] = number;
    return number;
  }

  /** Where `text` is in the store (storing it unless it is already at `stored`, `storedLength` long); sets its length. */
  private store(text: string | undefined, stored: number, storedLength: number, length: number, index: number, loose: Map<number, string>): number {
    if (stored >= 0) {
      this.ints[length] = storedLength;
      return stored;
    }
    if (text === undefined) return NONE;
    const at = this.text.add(text);
    if (at < 0) loose.set(index, text);
    else this.ints[length] = this.text.size - at;
    return at;
  }

  /**
   * Stores an id that is not already in a borrowed chunk: only its part after the prefix it
   * shares with the previous row's id, where that is one (see RESTART).
   */
  private storeId(id: string | undefined, row: number, index: number): number {
    if (id === undefined) return NONE;
    const last = this.lastId;
    let shared = 0;
    if (last !== undefined && index % RESTART !== 0) {
      const most = Math.min(last.length, id.length, SHARE_LIMIT - 1);
      while (shared < most && last.charCodeAt(shared) === id.charCodeAt(shared)) shared++;
    }
    if (shared > 0 && id.length - shared < SHARE_LIMIT) {
      // A suffix that starts inside a surrogate pair is not UTF-8: the id is then stored whole.
      const at = this.text.add(id.slice(shared));
      if (at >= 0) {
        this.ints[row + ID_LENGTH] = ~((this.text.size - at) | (shared << SHARED_SHIFT));
        return at;
      }
    }
    return this.store(id, -1, 0, row + ID_LENGTH, index, this.looseIds);
  }

  private read(index: number, start: number, length: number, loose: Map<number, string>): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const row = index * this.stride;
    const at = this.ints[row + start]!;
    return at >= 0 ? this.text.text(at, this.ints[row + length]!) : loose.get(index);
  }

  private seqAt(index: number, bits: number): SeqValue | undefined {
    const key = this.seqKeyAt(index);
    return key === undefined ? undefined : { key, value: this.seqValueAt(index), kind: KINDS[(bits >> KIND_SHIFT) & 0b11]! };
  }

  /** Room for `rows` rows: both views on one region. */
  private allocate(rows: number): void {
    // INITIAL_ROWS is even, so the region's size, and the ints' offset in it, are multiples of 8.
    const region = this.buffers.take(rows * (2 * Float64Array.BYTES_PER_ELEMENT + this.stride * Int32Array.BYTES_PER_ELEMENT));
    this.region = region;
    this.floats = new Float64Array(region.buffer, region.offset, rows * 2);
    this.ints = new Int32Array(region.buffer, region.offset + rows * 2 * Float64Array.BYTES_PER_ELEMENT, rows * this.stride);
    this.capacity = rows;
  }

  /**
   * Moves the rows to a region of their own size, and gives the larger one back for the next
   * table to grow into: for a stream that has ended. A table that doubled as its events came is
   * up to half empty, and a session keeps its ended streams' tables for hours.
   */
  trim(): void {
    this.lastId = undefined;
    // An even count keeps the region's size, and the ints' offset in it, multiples of 8.
    const rows = Math.max(2, this.length + (this.length & 1));
    if (rows >= this.capacity) return;
    const { floats, ints, region } = this;
    this.allocate(rows);
    this.floats.set(floats.subarray(0, rows * 2));
    this.ints.set(ints.subarray(0, rows * this.stride));
    this.buffers.give(region);
  }

  /** Doubles the rows; amortised O(1) per event. */
  private grow(): void {
    const { floats, ints, region } = this;
    this.allocate(this.capacity * 2);
    this.floats.set(floats);
    this.ints.set(ints);
    this.buffers.give(region);
  }
}

/** `text` in a string of its own, not a slice of a larger one. */
function own(text: string | undefined): string | undefined {
  return text === undefined ? undefined : (JSON.parse(JSON.stringify(text)) as string);
}

/** An empty table, for streams that are not MCP or not known. */
export const NO_EVENTS: EventTable = Object.freeze({
  length: 0,
  get: () => undefined,
  findIndex: () => -1,
  timeAt: () => NaN,
  idAt: () => undefined,
  hasId: () => false,
  roleAt: () => 'empty' as const,
  methodAt: () => undefined,
  seqKeyAt: () => undefined,
  seqValueAt: () => NaN,
  resumeTokenAt: () => undefined,
  idKeyAt: () => undefined,
  progressTokenAt: () => undefined,
  *[Symbol.iterator]() {},
});
