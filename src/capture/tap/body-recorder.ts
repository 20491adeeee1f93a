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
 * For a stream known to be MCP. Tees `body`: the page gets a branch wrapped only to learn when the page cancels it, and the tap
 * reads the other branch on its own, so arrival times are the network's, not the page's reading
 * pace. Never `clone().text()`: on a stream that never ends it never resolves.
 */
export function teeBody(p: Primordials, body: ReadableStream<Uint8Array>, sink: BodySink): ReadableStream<Uint8Array> {
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

  void pump(p, tapReader, sink, () => cancelledByPage);
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

async function pump(p: Primordials, reader: ReadableStreamDefaultReader<Uint8Array>, sink: BodySink, cancelled: () => boolean): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      emitBytes(sink, p.now(), value);
    }
    // A read cancelled by the page resolves as done, not as an error.
    sink.end(cancelled() ? { state: 'cancelled', time: p.now(), error: 'cancelled by the page' } : { state: 'complete', time: p.now() });
  } catch (error) {
    sink.end({ state: cancelled() || isAbort(error) ? 'cancelled' : 'reset', time: p.now(), error: describe(error) });
  }
}

/**
 * For an event stream that may be the legacy transport: no tee (most such streams are not MCP,
 * and a tee would cost them), but a pass-through that looks at the first bytes the page reads.
 * Once the `endpoint` event is seen the stream is recorded from the page's own reads, copied,
 * since the page owns those chunks; otherwise the pass-through only forwards.
 */
export function sniffBody(p: Primordials, body: ReadableStream<Uint8Array>, sink: BodySink, sniff: Sniffer): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new p.TextDecoder();
  let state: 'sniffing' | 'mcp' | 'other' = 'sniffing';
  let held: { time: number; value: Uint8Array }[] = [];
  let text = '';
  const end = (e: StreamEnd) => state === 'mcp' && sink.end(e);
  return new p.ReadableStream<Uint8Array>(
    {
      pull(controller) {
        return reader.read().then(
          ({ done, value }) => {
            if (done) return end({ state: 'complete', time: p.now() }), controller.close();
            const time = p.now();
            if (state === 'mcp') emitBytes(sink, time, value.slice());
            else if (state === 'sniffing') {
              held.push({ time, value: value.slice() });
              text += decoder.decode(value, { stream: true });
              const verdict = sniff(text);
              if (verdict === true) {
                state = 'mcp';
                for (const h of held) emitBytes(sink, h.time, h.value);
              } else if (verdict === false || text.length >= MAX_SNIFF_CHARS) state = 'other';
              if (state !== 'sniffing') held = [];
            }
            controller.enqueue(value);
          },
          (error: unknown) => {
            end({ state: isAbort(error) ? 'cancelled' : 'reset', time: p.now(), error: describe(error) });
            controller.error(error);
          },
        );
      },
      cancel(reason) {
        end({ state: 'cancelled', time: p.now(), error: 'cancelled by the page' });
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
