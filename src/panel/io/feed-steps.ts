import { requestOf, type Analyzer, type BodyChunk, type Exchange } from '../../core/index';

/** A body chunk is fed in pieces of at most this many characters or bytes (a step's unit). */
const MAX_PIECE = 64 * 1024;

/**
 * What `feed` does for one exchange, one step (a piece of a chunk) at a time, so whoever feeds
 * can stop between steps: a single body may hold a whole session. The analysis gives the same
 * events however a body is cut (src/core/chunking.test.ts), and each piece keeps its chunk's time.
 */
export function* feedSteps(analyzer: Analyzer, exchange: Exchange): Generator<number> {
  const index = analyzer.open(requestOf(exchange));
  if (exchange.status !== 0 || exchange.responseHeaders.length > 0) analyzer.respond(index, { status: exchange.status, headers: exchange.responseHeaders });
  for (const chunk of exchange.chunks) {
    for (const piece of pieces(chunk)) {
      analyzer.chunk(index, piece);
      yield index;
    }
  }
  analyzer.end(index, exchange.end);
  yield index;
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
