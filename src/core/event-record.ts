import type { SeqValue } from './sequence';
import type { EventRecord } from './state';

type Role = EventRecord['role'];
const ROLES: readonly Role[] = ['request', 'notification', 'progress', 'result', 'error', 'endpoint', 'empty', 'malformed', 'truncated'];
const ROLE_CODE = new Map(ROLES.map((role, code) => [role, code]));
const KINDS: readonly SeqValue['kind'][] = ['app_seq', 'progress', 'pointer'];

// Bit layout of `bits`: role (4 bits), seq kind (2 bits), idOnly, truncated.
const ROLE_MASK = 0b1111;
const KIND_SHIFT = 4;
const ID_ONLY = 1 << 6;
const TRUNCATED = 1 << 7;

/** Fields most events never set, kept out of line so that common events pay no slot for them. */
interface Rare {
  event?: string | undefined;
  retry?: number | undefined;
  stopReason?: string | undefined;
  resumeToken?: string | undefined;
}

/** Everything needed to build a record; plain locals in `describe`, then one allocation. */
export type RecordFields = { -readonly [K in Exclude<keyof EventRecord, 'idOnly' | 'truncated'>]: EventRecord[K] } & {
  idOnly: boolean;
  truncated: boolean;
};

/**
 * The stored form of an {@link EventRecord}. A session keeps one per event for hours, so its size
 * is the analysis's memory: ten slots instead of fifteen plus a `seq` object, with role, flags
 * and sequence kind packed into one small integer and the rare fields in one optional object.
 * Getters give back the documented shape; `seq` is rebuilt on read (readers are the report's
 * resume rules and the one event a user opens, not a per-event hot path).
 */
class CompactRecord implements EventRecord {
  readonly time: number;
  readonly id: string | undefined;
  readonly data: string;
  readonly method: string | undefined;
  readonly idKey: string | undefined;
  readonly progressToken: string | undefined;
  private readonly seqKey: string | undefined;
  private readonly seqValue: number;
  private readonly bits: number;
  private readonly rare: Rare | undefined;

  constructor(f: RecordFields) {
    this.time = f.time;
    this.id = f.id;
    this.data = f.data;
    this.method = f.method;
    this.idKey = f.idKey;
    this.progressToken = f.progressToken;
    this.seqKey = f.seq?.key;
    this.seqValue = f.seq?.value ?? 0;
    this.bits = ROLE_CODE.get(f.role)! | (f.seq ? KINDS.indexOf(f.seq.kind) << KIND_SHIFT : 0) | (f.idOnly ? ID_ONLY : 0) | (f.truncated ? TRUNCATED : 0);
    const rare = f.event !== undefined || f.retry !== undefined || f.stopReason !== undefined || f.resumeToken !== undefined;
    this.rare = rare ? { event: f.event, retry: f.retry, stopReason: f.stopReason, resumeToken: f.resumeToken } : undefined;
  }

  get role(): Role {
    return ROLES[this.bits & ROLE_MASK]!;
  }
  get seq(): SeqValue | undefined {
    if (this.seqKey === undefined) return undefined;
    return { key: this.seqKey, value: this.seqValue, kind: KINDS[(this.bits >> KIND_SHIFT) & 0b11]! };
  }
  get idOnly(): true | undefined {
    return this.bits & ID_ONLY ? true : undefined;
  }
  get truncated(): true | undefined {
    return this.bits & TRUNCATED ? true : undefined;
  }
  get event(): string | undefined {
    return this.rare?.event;
  }
  get retry(): number | undefined {
    return this.rare?.retry;
  }
  get stopReason(): string | undefined {
    return this.rare?.stopReason;
  }
  get resumeToken(): string | undefined {
    return this.rare?.resumeToken;
  }

  /** Plain data for JSON and structured clone, which skip prototype getters. */
  toJSON(): Omit<EventRecord, never> {
    const { time, id, event, data, retry, idOnly, truncated, role, method, idKey, seq, progressToken, stopReason, resumeToken } = this;
    return { time, id, event, data, retry, idOnly, truncated, role, method, idKey, seq, progressToken, stopReason, resumeToken };
  }
}

export function createRecord(fields: RecordFields): EventRecord {
  return new CompactRecord(fields);
}
