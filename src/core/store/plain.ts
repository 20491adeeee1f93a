import type { EventRecord } from '../analysis/state';
import type { MessageFacts } from '../read/facts';
import type { ChunkPlace } from '../read/sse';
import type { EventHead, EventTableWriter } from './event-table';
import type { Delivery, IdRecord } from './id-index';

/**
 * The plain twins of the packed store: an array of records and a `Map`. They hold exactly what the
 * packed structures hold, in the most obvious way, so a test (or a suspicion) can run the whole
 * analysis on them and compare. The packed ones exist only for speed and memory (bench/).
 */

/** A stream's events as an array of records. */
export class EventList implements EventTableWriter {
  private readonly records: EventRecord[] = [];

  /** `keepData`: whether events keep their data (see AnalysisOptions.keepPayloads). */
  constructor(private readonly keepData = true) {}

  get length(): number {
    return this.records.length;
  }

  append(head: EventHead, text: string | ChunkPlace, facts: MessageFacts): number {
    this.records.push({
      time: head.time,
      id: head.id,
      event: head.event,
      data: !this.keepData ? '' : typeof text === 'string' ? text : text.text.slice(text.dataAt, text.dataAt + text.dataLength),
      retry: head.retry,
      idOnly: head.idOnly,
      truncated: head.truncated,
      role: facts.role,
      method: facts.method,
      idKey: facts.idKey,
      // A reader may rewrite its facts for the next event: the record keeps a copy.
      seq: facts.seq && { ...facts.seq },
      progressToken: facts.progressToken,
      stopReason: facts.stopReason,
      resumeToken: facts.resumeToken,
    });
    return this.records.length - 1;
  }

  trim(): void {}

  get(index: number): EventRecord | undefined {
    const record = this.records[index];
    return record && { ...record, seq: record.seq && { ...record.seq } };
  }
  findIndex(test: (record: EventRecord, index: number) => boolean): number {
    return this.records.findIndex((record, index) => test(this.get(index)!, index));
  }
  *[Symbol.iterator](): Iterator<EventRecord> {
    for (let i = 0; i < this.records.length; i++) yield this.get(i)!;
  }
  timeAt(index: number): number {
    return this.records[index]?.time ?? NaN;
  }
  idAt(index: number): string | undefined {
    return this.records[index]?.id;
  }
  hasId(index: number): boolean {
    return this.records[index]?.id !== undefined;
  }
  roleAt(index: number): EventRecord['role'] {
    return this.records[index]!.role;
  }
  methodAt(index: number): string | undefined {
    return this.records[index]?.method;
  }
  seqKeyAt(index: number): string | undefined {
    return this.records[index]?.seq?.key;
  }
  seqValueAt(index: number): number {
    return this.records[index]?.seq?.value ?? NaN;
  }
  resumeTokenAt(index: number): string | undefined {
    return this.records[index]?.resumeToken;
  }
  idKeyAt(index: number): string | undefined {
    return this.records[index]?.idKey;
  }
  progressTokenAt(index: number): string | undefined {
    return this.records[index]?.progressToken;
  }
}

/** Where each id was first delivered, in a `Map`. */
export class MapIdIndex implements IdRecord {
  private readonly first = new Map<string, Delivery>();

  get size(): number {
    return this.first.size;
  }
  get(id: string): Delivery | undefined {
    const found = this.first.get(id);
    return found && { ...found };
  }
  has(id: string): boolean {
    return this.first.has(id);
  }
  add(id: string, stream: number, event: number): Delivery | undefined {
    const earlier = this.get(id);
    if (!earlier) this.first.set(id, { stream, event });
    return earlier;
  }
}
