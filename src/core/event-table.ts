import type { SeqValue } from './sequence';
import type { EventRecord } from './state';
import type { StringTable } from './string-table';
import { TextStore } from './text-store';

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

/** Everything one event adds to its table; plain locals in `describe`, then one append. */
export type RecordFields = { -readonly [K in Exclude<keyof EventRecord, 'idOnly' | 'truncated'>]: EventRecord[K] } & {
  idOnly: boolean;
  truncated: boolean;
  /**
   * Where `id` and `data` already are in the text store (a borrowed chunk), each as long as its
   * string; -1 when the table must store them.
   */
  idAt: number;
  dataAt: number;
};

const ROLES: readonly Role[] = ['request', 'notification', 'progress', 'result', 'error', 'endpoint', 'empty', 'malformed', 'truncated'];
const ROLE_CODE: Readonly<Record<Role, number>> = Object.fromEntries(ROLES.map((role, code) => [role, code])) as Record<Role, number>;
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

export class EventColumns implements EventTable {
  length = 0;
  private times = new Float64Array(INITIAL_ROWS);
  private seqValues = new Float64Array(INITIAL_ROWS);
  private bits = new Uint8Array(INITIAL_ROWS);
  private seqKeys = new Int32Array(INITIAL_ROWS);
  private methods = new Int32Array(INITIAL_ROWS);
  private tokens = new Int32Array(INITIAL_ROWS);
  private eventTypes = new Int32Array(INITIAL_ROWS);
  // `id` and `data` in the analysis's text store: where each starts and how long it is there
  // (-1: none, or kept as a string in `looseIds`/`looseData`).
  private dataStarts = new Int32Array(INITIAL_ROWS);
  private dataLengths = new Int32Array(INITIAL_ROWS);
  private idStarts = new Int32Array(INITIAL_ROWS);
  private idLengths = new Int32Array(INITIAL_ROWS);
  /** Ids and data the store cannot hold (see `TextStore.add`). */
  private readonly looseIds = new Map<number, string>();
  private readonly looseData = new Map<number, string>();
  private readonly rare = new Map<number, Rare>();

  constructor(
    private readonly strings: StringTable,
    private readonly text: TextStore,
  ) {}

  append(f: RecordFields): void {
    const i = this.length;
    if (i === this.times.length) this.grow();
    this.times[i] = f.time;
    this.seqValues[i] = f.seq ? f.seq.value : NaN;
    this.bits[i] = ROLE_CODE[f.role] | (f.seq ? KINDS.indexOf(f.seq.kind) << KIND_SHIFT : 0) | (f.idOnly ? ID_ONLY : 0) | (f.truncated ? TRUNCATED : 0);
    this.seqKeys[i] = f.seq ? this.strings.indexOf(f.seq.key) : NONE;
    this.methods[i] = f.method === undefined ? NONE : this.strings.indexOf(f.method);
    this.tokens[i] = f.progressToken === undefined ? NONE : this.strings.indexOf(f.progressToken);
    this.eventTypes[i] = f.event === undefined ? NONE : this.strings.indexOf(f.event);
    this.idStarts[i] = this.store(f.id, f.idAt, this.idLengths, i, this.looseIds);
    this.dataStarts[i] = this.store(f.data || undefined, f.dataAt, this.dataLengths, i, this.looseData);
    if (f.idKey !== undefined || f.retry !== undefined || f.stopReason !== undefined || f.resumeToken !== undefined) {
      // Copies: a string from the payload may be a slice that would keep its whole decoded chunk
      // alive for the session's life (see json-shapes.ts); the text store keeps the rest as bytes.
      this.rare.set(i, { idKey: f.idKey, retry: f.retry, stopReason: own(f.stopReason), resumeToken: own(f.resumeToken) });
    }
    this.length = i + 1;
  }

  get(index: number): EventRecord | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const bits = this.bits[index]!;
    const rare = this.rare.get(index);
    return {
      time: this.times[index]!,
      id: this.idAt(index),
      event: this.stringAt(this.eventTypes, index),
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
    return this.times[index]!;
  }
  idAt(index: number): string | undefined {
    return this.read(index, this.idStarts, this.idLengths, this.looseIds);
  }
  hasId(index: number): boolean {
    return index >= 0 && index < this.length && (this.idStarts[index]! >= 0 || this.looseIds.has(index));
  }
  dataOf(index: number): string {
    return this.read(index, this.dataStarts, this.dataLengths, this.looseData) ?? '';
  }
  roleAt(index: number): Role {
    return ROLES[this.bits[index]! & ROLE_MASK]!;
  }
  methodAt(index: number): string | undefined {
    return this.stringAt(this.methods, index);
  }
  seqKeyAt(index: number): string | undefined {
    return this.stringAt(this.seqKeys, index);
  }
  seqValueAt(index: number): number {
    return this.seqValues[index]!;
  }
  resumeTokenAt(index: number): string | undefined {
    return this.rare.get(index)?.resumeToken;
  }
  idKeyAt(index: number): string | undefined {
    return this.rare.get(index)?.idKey;
  }
  progressTokenAt(index: number): string | undefined {
    return this.stringAt(this.tokens, index);
  }

  /** The string a string-table column holds for event `index`; undefined for none or out of range. */
  private stringAt(column: Int32Array, index: number): string | undefined {
    const at = column[index]!;
    return at === NONE || !(index >= 0 && index < this.length) ? undefined : this.strings.at(at);
  }

  private store(text: string | undefined, stored: number, lengths: Int32Array, index: number, loose: Map<number, string>): number {
    if (text === undefined) return NONE;
    if (stored >= 0) {
      lengths[index] = text.length;
      return stored;
    }
    const at = this.text.add(text);
    if (at < 0) loose.set(index, text);
    else lengths[index] = this.text.size - at;
    return at;
  }

  private read(index: number, starts: Int32Array, lengths: Int32Array, loose: Map<number, string>): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const at = starts[index]!;
    return at >= 0 ? this.text.text(at, lengths[index]!) : loose.get(index);
  }

  private seqAt(index: number, bits: number): SeqValue | undefined {
    const key = this.seqKeyAt(index);
    return key === undefined ? undefined : { key, value: this.seqValues[index]!, kind: KINDS[(bits >> KIND_SHIFT) & 0b11]! };
  }

  /** Doubles every column; amortised O(1) per event. */
  private grow(): void {
    const size = this.times.length * 2;
    const widen = <T extends Float64Array | Uint8Array | Int32Array>(old: T, make: new (n: number) => T): T => {
      const next = new make(size);
      next.set(old);
      return next;
    };
    this.times = widen(this.times, Float64Array);
    this.seqValues = widen(this.seqValues, Float64Array);
    this.bits = widen(this.bits, Uint8Array);
    this.seqKeys = widen(this.seqKeys, Int32Array);
    this.methods = widen(this.methods, Int32Array);
    this.tokens = widen(this.tokens, Int32Array);
    this.eventTypes = widen(this.eventTypes, Int32Array);
    this.dataStarts = widen(this.dataStarts, Int32Array);
    this.dataLengths = widen(this.dataLengths, Int32Array);
    this.idStarts = widen(this.idStarts, Int32Array);
    this.idLengths = widen(this.idLengths, Int32Array);
  }
}

/** `text` in a string of its own, not a slice of a larger one. */
function own(text: string | undefined): string | undefined {
  return text === undefined ? undefined : (JSON.parse(JSON.stringify(text)) as string);
}

/** An empty table, for streams that are not MCP or not known. */
export const NO_EVENTS: EventTable = new EventColumns({ indexOf: () => NONE, at: () => '' }, new TextStore());
