import type { Exchange } from '../model';
import { createEntryScan } from './entry-scan';
import { createProblemList, NO_ENTRIES, NO_LOG, readEntry, readLogContext, type EntryContext, type HarReadOptions } from './read';

/** Parses JSON text; what it is not JSON gives the error (no HAR value is an Error). */
function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** How a streamed read ended: what {@link readHar} says, but with the exchanges already handed over. */
export type HarStreamResult =
  | { ok: true; exchanges: number; skippedEntries: number; problems: string[] }
  | { ok: false; reason: string };

/** A HAR read as its bytes arrive; see {@link createHarStreamReader}. */
export interface HarStreamReader {
  /** Reads the next bytes; exchanges of the entries they complete are handed over before it returns. */
  push(chunk: Uint8Array): void;
  /** The file is complete: the same verdict {@link readHar} gives on the whole text. */
  finish(): HarStreamResult;
  /** Bytes read so far (for progress). */
  readonly bytes: number;
  /** Set once the file cannot be HAR: the caller may stop reading it. */
  readonly failure: string | undefined;
}

/**
 * Reads a HAR entry by entry as its bytes arrive (in chunks of any size), handing each entry's
 * {@link Exchange} to `onExchange` and keeping nothing of it: a file of any size costs one
 * entry's memory here. Exchanges and problems are those {@link readHar} gives for the whole
 * text, in the same order, since every writer puts `log.creator` and `log.pages` before
 * `log.entries`; a file that puts them after reads its entries without them.
 *
 * When the verdict is `ok: false`, the exchanges handed over so far belong to no valid file and
 * should be dropped.
 */
export function createHarStreamReader(onExchange: (exchange: Exchange) => void, options: HarReadOptions = {}): HarStreamReader {
  const problems = createProblemList();
  const members: Record<string, unknown> = {};
  let context: EntryContext = {};
  let index = 0;
  let exchanges = 0;
  let skippedEntries = 0;

  const scan = createEntryScan({
    logMember(name, text) {
      const value = parse(text);
      if (!(value instanceof Error)) members[name] = value;
    },
    entriesStart() {
      context = readLogContext(members);
    },
    entry(text) {
      const value = parse(text);
      if (value instanceof Error) return `entry ${index}: ${value.message}`;
      const at = index++;
      const exchange = readEntry(value, options, (message) => problems.add(`entry ${at}: ${message}`), { ...context, index: at });
      if (!exchange) skippedEntries++;
      else {
        exchanges++;
        onExchange(exchange);
      }
      return undefined;
    },
  });

  return {
    push(chunk) {
      scan.push(chunk);
    },
    finish() {
      const end = scan.finish();
      if (!end.ok) return end;
      if (!end.sawLog) return { ok: false, reason: NO_LOG };
      if (!end.entriesIsArray) return { ok: false, reason: NO_ENTRIES };
      return { ok: true, exchanges, skippedEntries, problems: problems.list() };
    },
    get bytes() {
      return scan.bytes;
    },
    get failure() {
      return scan.failure;
    },
  };
}
