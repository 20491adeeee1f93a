import type { Exchange, ResponseInfo, StreamEnd } from '../core/index';
import { MAX_EXCHANGES, MAX_RECORDED_CHUNKS, MAX_RECORDING_BYTES, MAX_STREAM_RECORD_BYTES, type ProxyCounters } from './caps';
import type { Spool } from './spool';

/** Where one recorded chunk's bytes are in the spool, and when they arrived. */
export interface SpooledChunk {
  time: number;
  at: number;
  length: number;
}

/** One exchange the proxy records: the core's record of it, and its stream index in the analysis. */
export interface Recorded {
  /** The exchange but its body, whose chunks are in {@link chunks} ({@link Recording.exchanges} joins them). */
  readonly exchange: Exchange;
  readonly chunks: SpooledChunk[];
  /** The stream index in the analysis (and the HAR entry's index: both count exchanges in order); -1 until the request is whole. */
  index: number;
  /** Response body bytes recorded. */
  bytes: number;
  /** Why later chunks are proxied, not recorded (the body outgrew a cap, or the spool refused it); undefined while all is recorded. */
  clipped: string | undefined;
  /** The recording's sequence number of each of its events (see RecordingEvent), 0 until it happened. */
  seqs: { open: number; response: number; chunks: number[]; end: number };
}

/**
 * What the recording tells its listeners (the live analysis, the live view's feed), in order.
 * `seq` numbers the recording's events from 1, across all exchanges, so a listener that lost
 * some can ask for those after the last it had ({@link Recording.since}).
 */
export type RecordingEvent =
  | { kind: 'open'; rec: Recorded; seq: number }
  | { kind: 'response'; rec: Recorded; seq: number }
  /** `data` is the chunk's bytes, valid only during the call (keep `at`, its place in the spool, instead). */
  | { kind: 'chunk'; rec: Recorded; seq: number; time: number; at: number; data: Uint8Array }
  | { kind: 'end'; rec: Recorded; seq: number };

/** The recording's events after a point, and for each body then mid-way, its last chunk before that point. */
export interface Since {
  events: RecordingEvent[];
  /** The chunk each such body last delivered before the point (a decoder picks up its state from it). */
  before: { rec: Recorded; data: Uint8Array }[];
}

export interface Recording {
  /** Starts recording an exchange; undefined when {@link MAX_EXCHANGES} is reached (counted). */
  start(request: { method: string; url: string; headers: Exchange['headers']; startTime: number }): Recorded | undefined;
  /** The request body has arrived (`undefined` when there was none or it was not recorded): the analysis opens the stream now. */
  requestDone(rec: Recorded, body: string | undefined): void;
  respond(rec: Recorded, response: ResponseInfo): void;
  chunk(rec: Recorded, data: Uint8Array, time: number): void;
  end(rec: Recorded, end: StreamEnd): void;
  /** Every recorded exchange with its body read back from the spool, in the analysis's stream order (what a HAR holds). */
  exchanges(): readonly Exchange[];
  /** Exchanges recorded whose body has not ended. */
  openCount(): number;
  /** Resolves once no recorded exchange is open. */
  settled(): Promise<void>;
  /**
   * Records nothing more: exchanges still open stay `open` (still streaming when the capture
   * ended), though the proxy then cuts their connections.
   */
  freeze(): void;
  readonly frozen: boolean;
  /** Listens to what is recorded from now on; returns the unsubscribe. */
  subscribe(listener: (event: RecordingEvent) => void): () => void;
  /** Each recorded exchange as a replay of events (exchange by exchange), for a listener that joins late. */
  replay(listener: (event: RecordingEvent) => void): void;
  /** The sequence number of the last event so far (0 before any). */
  lastSeq(): number;
  /** The events after `seq` (at most {@link lastSeq}), in their order. */
  since(seq: number): Since;
}

const CLIPPED = (kept: number, why: string, end: StreamEnd) =>
  `the proxy recorded only the first ${kept} bytes of this body (${why}); the rest was proxied unseen` +
  (end.state === 'complete' ? ', and the body then ended normally' : '');
const OVER_CAP = 'its recording cap';

/**
 * The proxy's recording: the exchanges it passed on, as they happen, for its listeners (the live
 * analysis, the live view's feed) and the HAR. Body bytes go to `spool` as they come; listeners
 * are handed each chunk once, and read what they need again from the spool.
 */
export function createRecording(counters: ProxyCounters, spool: Spool): Recording {
  const list: Recorded[] = [];
  const listeners = new Set<(event: RecordingEvent) => void>();
  const waiters = new Set<() => void>();
  let started = 0;
  let open = 0;
  let totalBytes = 0;
  let totalChunks = 0;
  let frozen = false;
  let seq = 0;
  /**
   * Drops the chunks of `rec` whose bytes the spool lost (a write failed: a full disk), and clips
   * its body there; `lostOne` says a chunk was just lost before it was kept.
   */
  const keepWhatTheSpoolHas = (rec: Recorded, lostOne = false) => {
    const failure = spool.failure;
    if (!failure) return;
    let kept = rec.chunks.length;
    while (kept > 0 && rec.chunks[kept - 1]!.at + rec.chunks[kept - 1]!.length > failure.at) kept -= 1;
    if (kept === rec.chunks.length && !lostOne) return;
    for (const { length } of rec.chunks.slice(kept)) {
      rec.bytes -= length;
      totalBytes -= length;
      counters.bytesNotRecorded += length;
    }
    rec.chunks.length = kept;
    rec.seqs.chunks.length = kept;
    if (!rec.clipped) counters.streamsClipped += 1;
    if (rec.clipped === undefined || rec.clipped === OVER_CAP) counters.recordingFileErrors += 1;
    rec.clipped = `the recording file refused the rest: ${failure.reason}`;
  };
  /** Writes what the spool holds staged, so that every chunk kept can be read back. */
  const settle = () => {
    spool.flush();
    if (spool.failure) for (const rec of list) keepWhatTheSpoolHas(rec);
  };
  const emit = (event: RecordingEvent) => {
    for (const listener of listeners) listener(event);
  };
  const ensureOpen = (rec: Recorded) => {
    if (rec.index >= 0) return;
    // The HAR entry this exchange becomes, for findings' evidence (as `check` reads it back).
    rec.exchange.entry = list.length;
    rec.index = list.length;
    list.push(rec);
    emit({ kind: 'open', rec, seq: (rec.seqs.open = ++seq) });
  };

  return {
    start(request) {
      if (started >= MAX_EXCHANGES) {
        counters.exchangesNotRecorded += 1;
        return undefined;
      }
      started += 1;
      open += 1;
      const exchange: Exchange = { ...request, status: 0, responseHeaders: [], chunks: [], end: { state: 'open' } };
      return { exchange, chunks: [], index: -1, bytes: 0, clipped: undefined, seqs: { open: 0, response: 0, chunks: [], end: 0 } };
    },
    requestDone(rec, body) {
      if (rec.index >= 0) return;
      if (body !== undefined) {
        rec.exchange.body = body;
        totalBytes += body.length;
      }
      ensureOpen(rec);
    },
    respond(rec, response) {
      ensureOpen(rec);
      rec.exchange.status = response.status;
      rec.exchange.responseHeaders = response.headers;
      emit({ kind: 'response', rec, seq: (rec.seqs.response = ++seq) });
    },
    chunk(rec, data, time) {
      if (frozen || rec.exchange.end.state !== 'open') return;
      if (rec.clipped) return void (counters.bytesNotRecorded += data.length);
      if (rec.bytes + data.length > MAX_STREAM_RECORD_BYTES || totalBytes + data.length > MAX_RECORDING_BYTES || totalChunks >= MAX_RECORDED_CHUNKS) {
        rec.clipped = OVER_CAP;
        counters.streamsClipped += 1;
        counters.bytesNotRecorded += data.length;
        return;
      }
      const at = spool.append(data);
      if (spool.failure && at + data.length > spool.failure.at) {
        counters.bytesNotRecorded += data.length;
        return keepWhatTheSpoolHas(rec, true);
      }
      rec.bytes += data.length;
      totalBytes += data.length;
      totalChunks += 1;
      rec.chunks.push({ time, at, length: data.length });
      rec.seqs.chunks.push(++seq);
      emit({ kind: 'chunk', rec, seq, time, at, data });
    },
    end(rec, end) {
      if (frozen || rec.exchange.end.state !== 'open') return;
      ensureOpen(rec);
      // Written now, so that a body whose tail the spool lost ends clipped, never complete.
      spool.flush();
      keepWhatTheSpoolHas(rec);
      // A clipped body: its kept start is analysed; a normal close is not where the kept body ended.
      const kept: StreamEnd = rec.clipped ? { ...end, state: end.state === 'complete' ? 'unknown' : end.state, bodyClipped: CLIPPED(rec.bytes, rec.clipped, end) } : end;
      rec.exchange.end = kept;
      emit({ kind: 'end', rec, seq: (rec.seqs.end = ++seq) });
      open -= 1;
      if (open > 0) return;
      for (const wake of waiters) wake();
      waiters.clear();
    },
    freeze() {
      frozen = true;
    },
    get frozen() {
      return frozen;
    },
    exchanges: () => {
      settle();
      return list.map((rec) => ({ ...rec.exchange, chunks: rec.chunks.map((c) => ({ time: c.time, data: spool.read(c.at, c.length) })) }));
    },
    openCount: () => open,
    settled: () => (open === 0 ? Promise.resolve() : new Promise((resolve) => waiters.add(resolve))),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    replay(listener) {
      settle();
      for (const rec of list) for (const event of eventsOf(rec, spool)) listener(event);
    },
    lastSeq: () => seq,
    since(after) {
      settle();
      const events: RecordingEvent[] = [];
      const before: Since['before'] = [];
      for (const rec of list) {
        if (rec.seqs.end !== 0 && rec.seqs.end <= after) continue;
        const { chunks } = rec;
        // Chunk seqs rise: the first after the point, by binary search.
        let low = 0;
        let high = chunks.length;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (rec.seqs.chunks[mid]! <= after) low = mid + 1;
          else high = mid;
        }
        if (low > 0) before.push({ rec, data: spool.read(chunks[low - 1]!.at, chunks[low - 1]!.length) });
        for (const event of eventsOf(rec, spool, low)) if (event.seq > after) events.push(event);
      }
      events.sort((a, b) => a.seq - b.seq);
      return { events, before };
    },
  };
}

/** One recorded exchange's events, its chunks from `fromChunk` on (read back from `spool`). */
function* eventsOf(rec: Recorded, spool: Spool, fromChunk = 0): Generator<RecordingEvent> {
  const { seqs, chunks } = rec;
  if (seqs.open === 0) return;
  yield { kind: 'open', rec, seq: seqs.open };
  if (seqs.response !== 0) yield { kind: 'response', rec, seq: seqs.response };
  for (let i = fromChunk; i < chunks.length; i++) {
    const { time, at, length } = chunks[i]!;
    yield { kind: 'chunk', rec, seq: seqs.chunks[i]!, time, at, data: spool.read(at, length) };
  }
  if (seqs.end !== 0) yield { kind: 'end', rec, seq: seqs.end };
}
