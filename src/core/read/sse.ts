import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Utf8Chunks } from './utf8-chunks';

/** One SSE event block as it arrived, before any JSON-RPC meaning is given to it. */
export interface SseEvent {
  /** Arrival time of the chunk that completed the block, ms since the epoch. */
  time: number;
  /** The block's `id:` value, an opaque string. Absent when the block set none. */
  id?: string | undefined;
  /** The `event:` type, absent for the default `message`. */
  event?: string | undefined;
  /** The joined `data:` lines; empty for priming and id-only blocks. */
  data: string;
  /** The latest `retry:` value seen since the previous block. */
  retry?: number | undefined;
  /**
   * An id-only block (no `data:` line). Browsers dispatch nothing for it, but it still moves the
   * Last-Event-ID cursor, so a resume may point at it.
   */
  idOnly?: true | undefined;
  /** The body ended inside this block: shown to the user, never parsed as a message. */
  truncated?: true | undefined;
}

/**
 * Where an event's text stands in the text of the chunk it arrived in, so the event table can keep
 * positions instead of copies (see EventColumns and TextStore.borrow). Valid only during the
 * callback that gives it: the framer and the readers rewrite one object.
 */
export interface ChunkPlace {
  /** The chunk's decoded text. */
  text: string;
  /**
   * The chunk itself, when positions in `text` are positions in it (always for a string; for
   * bytes, when every character took one byte); undefined otherwise.
   */
  chunk: Uint8Array | string | undefined;
  /** Where the event's data starts in `text`, and its length. */
  dataAt: number;
  dataLength: number;
  /** Where the event's id starts in `text`; -1 when not known. */
  idAt: number;
}

/**
 * A block the framer fed the parser alone: its text (from its start to the first "\n\n", one
 * block unless a blank line before it ended in CR), what block templates learn from, and where its
 * data stands when it stands whole in the chunk. Valid only during the callback.
 */
export interface FedBlock {
  raw: string;
  place: ChunkPlace | undefined;
}

/**
 * Longest event, in characters, that one stream may buffer. Past it the parser drops the block
 * and reports it, instead of growing a string until the tab runs out of memory.
 */
export const MAX_EVENT_CHARS = 64 * 1024 * 1024;

export interface SseFramer {
  /**
   * Feeds one body chunk; events completed by it are reported synchronously. Returns where the
   * chunk's complete blocks end in its text: the chunk's length when it ends on a block's end,
   * the start of the unfinished block it ends in, or -1 when it ends no block (see
   * Analyzer.chunk).
   */
  push(data: Uint8Array | string, time: number): number;
  /**
   * Ends the body. Bytes of an unfinished block become one `truncated` event, so a stream reset
   * mid-event still shows what arrived.
   */
  finish(time: number): void;
  /** Comment lines (`: keep-alive`) seen so far. */
  readonly comments: number;
}

/** Called with a one-line description of bytes the framer could not use. */
export type FramingProblem = (message: string) => void;

/**
 * Takes whole blocks starting at `at` of `text` that it recognises (see block-template.ts) and
 * returns where it stopped: `at` when it took none. Blocks it takes never reach the parser.
 * `source` is the chunk `text` was decoded from, given only when a position in `text` is the same
 * position in it (always for a string; for bytes, when every character took one byte).
 */
export type BlockReader = (text: string, at: number, time: number, source: Uint8Array | string | undefined) => number;

/**
 * Frames an SSE body into {@link SseEvent}s. The result does not depend on how the body was cut
 * into chunks: decoding carries a character cut between chunks over (see utf8-chunks.ts), and
 * eventsource-parser carries partial lines over.
 *
 * Text is handed to the parser block by block, each block on its own (so the event knows its
 * `raw` text, and the framer where complete blocks end). With a `reader`, at each block start the
 * reader may first take the blocks it recognises; it is asked only while the parser holds nothing
 * of a block.
 */
export function createSseFramer(onEvent: (event: SseEvent, block: FedBlock | undefined) => void, onProblem: FramingProblem, reader?: BlockReader): SseFramer {
  const decoder = new Utf8Chunks();
  let now = 0;
  let comments = 0;
  let retry: number | undefined;
  let finishing = false;
  let endsWithCr = false;
  // eventsource-parser reports a block's id (onId) just before its event (onEvent). A block with
  // an id and no data gets only onId; we learn that when the next callback or the feed ends.
  let pendingId: string | undefined;
  // Block by block (with a reader): the text of the block being fed alone, whether the parser
  // holds part of a block (`busy`), and whether it has been fed at all (it strips one BOM first).
  let raw: string | undefined;
  let rawAt = 0;
  let busy = false;
  let endsWithLf = false;
  let fed = false;
  // The chunk being fed, when positions in its text are positions in it (see BlockReader), and
  // its text.
  let source: Uint8Array | string | undefined;
  let chunkText = '';
  // Rewritten for each block fed alone (see FedBlock).
  const place: ChunkPlace = { text: '', chunk: undefined, dataAt: -1, dataLength: 0, idAt: -1 };
  const fedBlock: FedBlock = { raw: '', place: undefined };

  const emit = (id: string | undefined, message: EventSourceMessage | undefined): void => {
    // One object shape for every event (absent fields are undefined): a million events stay
    // monomorphic for the JIT instead of forking hidden classes per optional field.
    const event: SseEvent = {
      time: now,
      id: id || undefined,
      event: message?.event,
      data: message?.data ?? '',
      retry,
      idOnly: message ? undefined : true,
      truncated: finishing ? true : undefined,
    };
    retry = undefined;
    if (raw === undefined) return onEvent(event, undefined);
    fedBlock.raw = raw;
    fedBlock.place = undefined;
    const at = source === undefined ? -1 : dataOffset(raw, event.data);
    if (at >= 0) {
      place.text = chunkText;
      place.chunk = source;
      place.dataAt = rawAt + at;
      place.dataLength = event.data.length;
      fedBlock.place = place;
    }
    onEvent(event, fedBlock);
    // Valid only during the callback. Held past it, each stream's framer would keep the text of
    // the last chunk it fed alone for as long as the stream is kept: a whole body, when a HAR
    // entry's body is fed at once.
    fedBlock.raw = place.text = '';
    place.chunk = undefined;
  };
  const flushIdOnly = (): void => {
    if (pendingId === undefined) return;
    const id = pendingId;
    pendingId = undefined;
    // `id:` with an empty value only clears the cursor; it is not an event worth a mark.
    if (id !== '') emit(id, undefined);
  };

  const parser = createParser({
    onId(id) {
      flushIdOnly();
      pendingId = id;
    },
    onEvent(message) {
      // onId fires just before onEvent for the same block, with the same id. A pending id that
      // differs (or an event with none) was an id-only block of its own; without this, whether
      // it merged into the next event depended on where the chunks were cut (found by fuzzing).
      if (pendingId !== undefined && pendingId !== message.id) flushIdOnly();
      const id = pendingId ?? message.id;
      pendingId = undefined;
      emit(id, message);
    },
    onRetry(ms) {
      flushIdOnly();
      retry = ms;
    },
    onComment() {
      flushIdOnly();
      comments++;
    },
    onError(error) {
      if (error.type === 'unknown-field') return; // the spec says ignore; so do browsers
      onProblem(error.message);
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });

  const feed = (text: string): void => {
    if (text === '') return;
    endsWithCr = text.charCodeAt(text.length - 1) === 13;
    try {
      parser.feed(text);
    } catch (error) {
      // Only a parser terminated by maxBufferSize throws; start afresh at the next bytes.
      parser.reset();
      onProblem(error instanceof Error ? error.message : String(error));
    }
    flushIdOnly();
  };

  /** Feeds the start of a block that does not end in `text`; the parser now holds it. */
  const feedPart = (text: string): void => {
    if (text === '') return;
    feed(text);
    fed = busy = true;
    endsWithLf = text.charCodeAt(text.length - 1) === 10;
  };
  /**
   * Feeds `text` block by block; returns where its unfinished tail starts (the text's length when
   * it ends on a block's end; -1 when it ends no block at all). `crs`: whether the text holds a
   * CR, which only then needs the general search for blank lines.
   */
  const feedBlocks = (text: string, crs: boolean): number => {
    let at = 0;
    // The last block boundary where the framer held nothing (no `retry:` pending for the next
    // event either): where what came before can be cut off without changing what comes after.
    let settled = -1;
    if (busy) {
      // The parser holds the start of a block: give it the text up to the block's blank line.
      // Text ending in a blank line always leaves the parser empty: that "\n\n" cannot be the
      // tail of a CRLF, and it ends every line before it.
      const straddles = endsWithLf && text.charCodeAt(0) === 10;
      const end = straddles ? 1 : blankLineEnd(text, 0, crs);
      if (end === -1) {
        feedPart(text);
        return -1;
      }
      at = end;
      feed(text.slice(0, at));
      busy = false;
    }
    while (at < text.length) {
      if (retry === undefined) settled = at;
      // A pending `retry:` belongs to the next event, which only the parser can then give.
      if (reader && fed && retry === undefined) {
        const next = reader(text, at, now, source);
        if (next > at) {
          at = next;
          continue;
        }
      }
      const end = blankLineEnd(text, at, crs);
      if (end === -1) {
        feedPart(text.slice(at));
        return settled;
      }
      raw = text.slice(at, end);
      rawAt = at;
      feed(raw);
      raw = undefined;
      fed = true;
      at = end;
    }
    return retry === undefined ? text.length : settled;
  };

  return {
    push(data, time) {
      now = time;
      const text = typeof data === 'string' ? data : decoder.decode(data);
      source = typeof data === 'string' || decoder.aligned ? data : undefined;
      chunkText = text;
      const settled = feedBlocks(text, text.includes('\r'));
      source = undefined;
      chunkText = '';
      return settled;
    },
    finish(time) {
      now = time;
      feed(decoder.end());
      // A final lone CR is already a line end (it might have been CRLF); settle it first so a
      // block it completes is not taken for a truncated one.
      if (endsWithCr) feed('\n');
      // Two line ends dispatch whatever block is unfinished; `finishing` marks it truncated.
      finishing = true;
      feed('\n\n');
      finishing = false;
    },
    get comments() {
      return comments;
    },
  };
}

/**
 * Where the first blank line at or after `from` ends (the position after it), or -1. `from` is a
 * line's start. Lines end in LF, CRLF or CR. A CR that ends the text ends its line, as it does for
 * eventsource-parser, which then skips an LF that starts the next text.
 */
function blankLineEnd(text: string, from: number, crs: boolean): number {
  // Hot path: no CR in the text, as servers write it.
  if (!crs) {
    const blank = text.indexOf('\n\n', from);
    return blank === -1 ? -1 : blank + 2;
  }
  let afterLineEnd = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) {
      afterLineEnd = false;
      continue;
    }
    let end = i + 1;
    if (c === 13 && text.charCodeAt(end) === 10) end++;
    if (afterLineEnd) return end;
    afterLineEnd = true;
    i = end - 1;
  }
  return -1;
}

/**
 * Where `data` stands in `raw`, a whole block ending in its blank line: when its one `data:` line
 * is the block's last, as servers write it. -1 otherwise (several `data:` lines are joined with
 * "\n", and stand nowhere as one text).
 */
function dataOffset(raw: string, data: string): number {
  // The data line is last: the block ends in the data, then the blank line.
  const at = raw.length - 2 - data.length;
  if (data === '' || at < 5 || !raw.startsWith(data, at) || raw.includes('\r')) return -1;
  // "data:" then one optional space (which the parser strips), at the start of a line.
  const line = raw.startsWith('data: ', at - 6) ? at - 6 : raw.startsWith('data:', at - 5) ? at - 5 : -1;
  if (line < 0 || (line > 0 && raw.charCodeAt(line - 1) !== 10)) return -1;
  // And the block's only data line: none starts the block, nor any line before this one.
  if (line > 0 && (raw.startsWith('data:') || raw.lastIndexOf('\ndata:', line - 2) >= 0)) return -1;
  return at;
}
