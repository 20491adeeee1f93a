import type { StreamEnd } from '../../core/model';
import { MAX_CHUNK_BYTES } from '../../shared/tap-validation';
import type { Primordials } from './primordials';

/** What the recorder reports; the fetch tap turns it into TapItems. */
export interface BodySink {
  chunk(time: number, data: Uint8Array): void;
  end(end: StreamEnd): void;
}

/**
 * Decides, from the first text of a body, whether the stream is MCP at all (the legacy
 * `event: endpoint` handshake). Returns undefined while it needs more text.
 */
export type Sniffer = (textSoFar: string) => boolean | undefined;

/** Longest prefix a sniffer may look at before the stream is declared not MCP. */
export const MAX_SNIFF_CHARS = 4_096;

const isAbort = (error: unknown) => typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);

/**
 * Tees `body`: the page gets a branch wrapped only to learn when the page cancels it, and the tap
 * reads the other branch on its own, so arrival times are the network's, not the page's reading
 * pace. Never `clone().text()`: on a stream that never ends it never resolves.
 */
export function teeBody(p: Primordials, body: ReadableStream<Uint8Array>, sink: BodySink, sniff?: Sniffer): ReadableStream<Uint8Array> {
  const [pageSide, tapSide] = body.tee();
  const pageReader = pageSide.getReader();
  const tapReader = tapSide.getReader();
  let cancelledByPage = false;

  const pageStream = new p.ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return pageReader.read().then(
          (r) => (r.done ? controller.close() : controller.enqueue(r.value)),
          (error: unknown) => controller.error(error),
        );
      },
      cancel(reason) {
        // The page gave up on the body: stop our branch too, or the connection stays open.
        cancelledByPage = true;
        tapReader.cancel(reason).catch(() => undefined);
        return pageReader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );

  void pump(p, tapReader, sink, sniff, () => cancelledByPage);
  return pageStream;
}

/**
 * Hands chunks on as raw bytes, split to MAX_CHUNK_BYTES. No decoding here: it costs per byte on
 * the page's main thread, and the relay does it only when a panel is watching. A chunk that is a
 * view into a larger buffer is copied first, since posting a view clones its whole buffer.
 */
function emitBytes(sink: BodySink, time: number, value: Uint8Array): void {
  if (value.byteLength <= MAX_CHUNK_BYTES) {
    const own = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
    return sink.chunk(time, own ? value : value.slice());
  }
  for (let at = 0; at < value.byteLength; at += MAX_CHUNK_BYTES) sink.chunk(time, value.slice(at, at + MAX_CHUNK_BYTES));
}

async function pump(p: Primordials, reader: ReadableStreamDefaultReader<Uint8Array>, sink: BodySink, sniff: Sniffer | undefined, cancelled: () => boolean): Promise<void> {
  // While sniffing, chunks wait here; once the stream is known to be MCP they are replayed.
  let held: { time: number; value: Uint8Array }[] | null = sniff ? [] : null;
  const decoder = sniff ? new p.TextDecoder() : null;
  let sniffed = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const time = p.now();
      if (!held) {
        emitBytes(sink, time, value);
        continue;
      }
      held.push({ time, value });
      sniffed += decoder!.decode(value, { stream: true });
      const verdict = sniff!(sniffed);
      if (verdict === undefined && sniffed.length < MAX_SNIFF_CHARS) continue;
      if (!verdict) {
        // Not MCP: stop reading our branch; the page's branch is untouched.
        await reader.cancel();
        return;
      }
      for (const c of held) emitBytes(sink, c.time, c.value);
      held = null;
    }
    if (held) return; // ended while still undecided: not MCP
    // A read cancelled by the page resolves as done, not as an error.
    sink.end(cancelled() ? { state: 'cancelled', time: p.now(), error: 'cancelled by the page' } : { state: 'complete', time: p.now() });
  } catch (error) {
    if (held) return;
    const state = cancelled() || isAbort(error) ? 'cancelled' : 'reset';
    sink.end({ state, time: p.now(), error: describe(error) });
  }
}
