import type { StreamEnd } from '../../core/model';
import { MAX_CHUNK_CHARS } from '../../shared/tap-validation';
import type { Primordials } from './primordials';

/** What the recorder reports; the fetch tap turns it into TapItems. */
export interface BodySink {
  chunk(time: number, bytes: number, text: string): void;
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

async function pump(p: Primordials, reader: ReadableStreamDefaultReader<Uint8Array>, sink: BodySink, sniff: Sniffer | undefined, cancelled: () => boolean): Promise<void> {
  const decoder = new p.TextDecoder();
  // While sniffing, chunks wait here; once the stream is known to be MCP they are replayed.
  let held: { time: number; bytes: number; text: string }[] | null = sniff ? [] : null;
  let sniffed = '';
  const emit = (time: number, bytes: number, text: string) => {
    // A big read is split so each piece fits the relay's MAX_CHUNK_CHARS; its bytes stay on the first.
    for (let at = 0, first = true; first || at < text.length; at += MAX_CHUNK_CHARS, first = false) {
      sink.chunk(time, first ? bytes : 0, text.slice(at, at + MAX_CHUNK_CHARS));
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const time = p.now();
      const text = decoder.decode(value, { stream: true });
      if (!held) {
        emit(time, value.byteLength, text);
        continue;
      }
      held.push({ time, bytes: value.byteLength, text });
      sniffed += text;
      const verdict = sniff!(sniffed);
      if (verdict === undefined && sniffed.length < MAX_SNIFF_CHARS) continue;
      if (!verdict) {
        // Not MCP: stop reading our branch; the page's branch is untouched.
        await reader.cancel();
        return;
      }
      for (const c of held) emit(c.time, c.bytes, c.text);
      held = null;
    }
    if (held) return; // ended while still undecided: not MCP
    const tail = decoder.decode();
    if (tail) emit(p.now(), 0, tail);
    // A read cancelled by the page resolves as done, not as an error.
    sink.end(cancelled() ? { state: 'cancelled', time: p.now(), error: 'cancelled by the page' } : { state: 'complete', time: p.now() });
  } catch (error) {
    if (held) return;
    // Bytes of a multi-byte character cut by the reset are kept as U+FFFD, not lost.
    const tail = decoder.decode();
    if (tail) emit(p.now(), 0, tail);
    const state = cancelled() || isAbort(error) ? 'cancelled' : 'reset';
    sink.end({ state, time: p.now(), error: describe(error) });
  }
}
