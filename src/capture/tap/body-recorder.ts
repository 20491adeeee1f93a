import type { StreamEnd } from '../../core/model';
import { MAX_CHUNK_BYTES } from '../../shared/tap-validation';
import type { Primordials } from './primordials';

/** What the recorder reports; the fetch tap turns it into TapItems. */
export interface BodySink {
  /**
   * `data` is borrowed: it is the page's own chunk (or a view of it), which the page may change
   * or transfer once it has read it. Copy what is kept, before returning.
   */
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
 * For a stream known to be MCP: a tee made by hand. The tap reads `body` itself, as fast as the
 * network delivers, so arrival times are the network's, not the page's reading pace; each chunk
 * goes to the sink, then into the stream the page reads. Never `clone().text()`: on a stream that
 * never ends it never resolves.
 *
 * Not `body.tee()`: a byte stream's tee copies every chunk into a new buffer for its second
 * branch, and those allocations, not the copying, cost the page about a tenth of its read speed
 * on a fast stream. Here the page gets the very chunks the network gave, and the sink copies what
 * it keeps (see BodySink). When the page cancels, the body itself is cancelled: the connection
 * closes, and the tap's pending read ends as done.
 */
export function teeBody(p: Primordials, body: ReadableStream<Uint8Array>, sink: BodySink): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let cancelledByPage = false;
  let page!: ReadableStreamDefaultController<Uint8Array>;
  // No pull: chunks are pushed as they arrive, and queue (like a tee's branch) until the page reads.
  const pageStream = new p.ReadableStream<Uint8Array>({
    start: (controller) => void (page = controller),
    cancel(reason) {
      cancelledByPage = true;
      return reader.cancel(reason);
    },
  });

  // The page's stream goes on whatever happens to the recording (a failed copy when memory is
  // short): the tap then stops recording this stream, and says so in its end.
  let recording = true;
  const record = (fn: () => void) => {
    if (!recording) return;
    try {
      fn();
    } catch (error) {
      recording = false;
      try {
        sink.end({ state: 'reset', time: p.now(), error: `the tap stopped recording: ${describe(error)}` });
      } catch {
        // nothing left to tell it with
      }
    }
  };

  void (async () => {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        record(() => sink.end({ state: cancelledByPage || isAbort(error) ? 'cancelled' : 'reset', time: p.now(), error: describe(error) }));
        if (!cancelledByPage) page.error(error);
        return;
      }
      // A read cancelled by the page resolves as done, not as an error.
      if (cancelledByPage) return record(() => sink.end({ state: 'cancelled', time: p.now(), error: 'cancelled by the page' }));
      if (next.done) {
        record(() => sink.end({ state: 'complete', time: p.now() }));
        return page.close();
      }
      // The sink copies before the page can see the chunk.
      const { value } = next;
      record(() => emitBytes(sink, p.now(), value));
      page.enqueue(value);
    }
  })();
  return pageStream;
}

/**
 * Hands chunks on as raw bytes, split to MAX_CHUNK_BYTES. No decoding here: it costs per byte on
 * the page's main thread, and the relay does it only when a panel is watching. No copy either:
 * the sink copies what it keeps.
 */
function emitBytes(sink: BodySink, time: number, value: Uint8Array): void {
  if (value.byteLength <= MAX_CHUNK_BYTES) return sink.chunk(time, value);
  for (let at = 0; at < value.byteLength; at += MAX_CHUNK_BYTES) sink.chunk(time, value.subarray(at, at + MAX_CHUNK_BYTES));
}

/**
 * For an event stream that may be the legacy transport: no tee (most such streams are not MCP,
 * and a tee would cost them), but a pass-through that looks at the first bytes the page reads.
 * Once the `endpoint` event is seen the stream is recorded from the page's own reads; otherwise
 * the pass-through only forwards. What it holds while it sniffs it copies, since the page owns
 * those chunks.
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
            if (state === 'mcp') emitBytes(sink, time, value);
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
