import { requestOf, type Analyzer, type BodyChunk, type Exchange } from '../../core/index';

/**
 * Main-thread time one slice of the import's analysis may take before it lets the browser paint
 * and handle input: well under the 50 ms at which a task counts as long.
 */
const SLICE_MS = 8;
/** A body chunk is fed in pieces of at most this many characters or bytes (a slice's unit). */
const MAX_PIECE = 64 * 1024;

/**
 * What the feed's owner shows of the analysis: asked after each slice whether it wants to look
 * again (`due`), and then let look (`refresh`) in a task of its own.
 */
export interface FeedViewer {
  /** `fresh`: the events the analysis completed since the last refresh. */
  due(fresh: number): boolean;
  refresh(): void;
}

/** Feeds exchanges to an analyzer a slice at a time; see {@link createSlicedFeed}. */
export interface SlicedFeed {
  add(exchanges: readonly Exchange[]): void;
  /** Resolves once everything added so far is fed (or the feed was cancelled). */
  drained(): Promise<void>;
  cancel(): void;
}

/**
 * Analyses an import as its exchanges arrive, in slices of main-thread time, yielding to the
 * browser between them, so a large file never freezes the panel. A long body is fed in pieces:
 * the analysis gives the same events however a body is cut (src/core/chunking.test.ts), and each
 * piece keeps its chunk's time. The viewer's refresh runs in a task of its own, between slices,
 * never after one in the same task: what it costs (a report, the views that follow it) then adds
 * to no slice's time.
 */
export function createSlicedFeed(analyzer: Analyzer, viewer: FeedViewer = { due: () => false, refresh: () => undefined }): SlicedFeed {
  const queue: Exchange[] = [];
  let next = 0;
  let cancelled = false;
  let pumping: Promise<void> | undefined;
  /** Events completed since the viewer last looked. */
  let fresh = 0;
  const refresh = () => {
    fresh = 0;
    viewer.refresh();
  };

  const pump = async (): Promise<void> => {
    // Not in the task that delivered the exchanges: that one has already spent its time.
    await yieldToBrowser();
    let deadline = performance.now() + SLICE_MS;
    while (next < queue.length && !cancelled) {
      const exchange = queue[next]!;
      // Dropped once fed: the source keeps its own list of the exchanges.
      queue[next++] = undefined as unknown as Exchange;
      for (const added of feedSteps(analyzer, exchange)) {
        fresh += added;
        if (performance.now() < deadline) continue;
        await yieldToBrowser();
        if (cancelled) return;
        if (viewer.due(fresh)) {
          refresh();
          await yieldToBrowser();
          if (cancelled) return;
        }
        deadline = performance.now() + SLICE_MS;
      }
    }
    queue.length = next = 0;
    if (cancelled || !viewer.due(fresh)) return;
    // What arrived is all fed: the viewer looks in a task of its own, as between slices.
    await yieldToBrowser();
    if (!cancelled) refresh();
  };

  return {
    add(exchanges) {
      if (cancelled) return;
      for (const exchange of exchanges) queue.push(exchange);
      pumping ??= pump().finally(() => (pumping = undefined));
    },
    async drained() {
      while (pumping) await pumping;
    },
    cancel() {
      cancelled = true;
    },
  };
}

/**
 * What `feed` does for one exchange, one step (a piece of a chunk) at a time; each step yields
 * how many events it completed.
 */
function* feedSteps(analyzer: Analyzer, exchange: Exchange): Generator<number> {
  const index = analyzer.open(requestOf(exchange));
  if (exchange.status !== 0 || exchange.responseHeaders.length > 0) analyzer.respond(index, { status: exchange.status, headers: exchange.responseHeaders });
  const events = () => analyzer.events(index).length;
  let before = events();
  for (const chunk of exchange.chunks) {
    for (const piece of pieces(chunk)) {
      analyzer.chunk(index, piece);
      const now = events();
      yield now - before;
      before = now;
    }
  }
  analyzer.end(index, exchange.end);
  yield events() - before;
}

/** A chunk cut into pieces of at most {@link MAX_PIECE}, never inside a UTF-16 surrogate pair. */
function* pieces(chunk: BodyChunk): Generator<BodyChunk> {
  const { data, time } = chunk;
  if (data.length <= MAX_PIECE) return yield chunk;
  for (let at = 0; at < data.length; ) {
    let end = Math.min(at + MAX_PIECE, data.length);
    if (typeof data === 'string' && end < data.length && isHighSurrogate(data.charCodeAt(end - 1))) end--;
    yield { time, data: typeof data === 'string' ? data.slice(at, end) : data.subarray(at, end) };
    at = end;
  }
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** Lets the browser paint and handle input, then resumes (a message is not clamped like a timer). */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
