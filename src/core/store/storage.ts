import { EventColumns, type EventTableWriter } from './event-table';
import { IdIndex, type IdAt, type IdRecord } from './id-index';
import { EventList, MapIdIndex } from './plain';
import { RowBuffers } from './row-buffers';
import { createStringTable } from './string-table';
import { TextStore } from './text-store';

/**
 * The analysis's storage, behind one door: a table of events per stream and a record of event ids
 * per session. The rules only read through `EventTable` and `IdRecord`; how rows, texts and ids are
 * packed is this folder's business.
 */
export interface Storage {
  /** A new stream's event table. */
  table(): EventTableWriter;
  /** A new session's id record; `idAt` reads an event's id back from its stream's table. */
  ids(idAt: IdAt): IdRecord;
}

/**
 * Which structures hold the events: `packed` (typed-array columns over a shared text store; ids as
 * hashes in a Bloom filter and sorted runs) or their `plain` twins (arrays of records, a `Map`).
 * Both give the same answers; tests run the analysis on each, and the benchmarks compare them.
 */
export interface StoreChoice {
  table: 'packed' | 'plain';
  ids: 'packed' | 'plain';
}

/** `keepData`: whether events keep their data, or only what the rules read (see AnalysisOptions.keepPayloads). */
export function createStorage(choice: StoreChoice, keepData: boolean): Storage {
  const strings = createStringTable();
  const text = new TextStore();
  const rows = new RowBuffers();
  return {
    table: choice.table === 'plain' ? () => new EventList(keepData) : () => new EventColumns(strings, text, rows, keepData),
    ids: choice.ids === 'plain' ? () => new MapIdIndex() : (idAt) => new IdIndex(idAt),
  };
}
