import { createParser, type EventSourceMessage } from 'eventsource-parser';

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
 * Longest event, in characters, that one stream may buffer. Past it the parser drops the block
 * and reports it, instead of growing a string until the tab runs out of memory.
 */
export const MAX_EVENT_CHARS = 64 * 1024 * 1024;

export interface SseFramer {
  /** Feeds one body chunk; events completed by it are reported synchronously. */
  push(data: Uint8Array | string, time: number): void;
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
 * Frames an SSE body into {@link SseEvent}s. The result does not depend on how the body was cut
 * into chunks: text decoding is streaming, and eventsource-parser carries partial lines over.
 */
export function createSseFramer(onEvent: (event: SseEvent) => void, onProblem: FramingProblem): SseFramer {
  const decoder = new TextDecoder('utf-8');
  let now = 0;
  let comments = 0;
  let retry: number | undefined;
  let finishing = false;
  let endsWithCr = false;
  // eventsource-parser reports a block's id (onId) just before its event (onEvent). A block with
  // an id and no data gets only onId; we learn that when the next callback or the feed ends.
  let pendingId: string | undefined;

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
    onEvent(event);
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

  return {
    push(data, time) {
      now = time;
      feed(typeof data === 'string' ? data : decoder.decode(data, { stream: true }));
    },
    finish(time) {
      now = time;
      feed(decoder.decode());
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
