import type { LoggedExchange } from './exchange-log';

/**
 * Analysed events the live capture keeps by default (the user can change it in the settings).
 * Past it the oldest events are evicted and counted: the design's "100k events stay smooth".
 */
export const MAX_PANEL_EVENTS = 100_000;
/**
 * Eviction goes down to this share of the cap, so the analysis is rebuilt once per fifth of the
 * cap rather than once per event (each rebuild re-reads every kept event).
 */
export const EVICT_TO = 0.8;

/** A chunk that ends on a blank line leaves the SSE framer empty: cutting after it splits no event. */
const endsEvent = (text: string) => text.endsWith('\n\n') || text.endsWith('\r\r') || text.endsWith('\r\n\r\n');

/** Where the text after the last blank line of `text` starts (0 when there is none). */
function afterLastBlankLine(text: string): number {
  return Math.max(text.lastIndexOf('\n\n') + 2, text.lastIndexOf('\r\r') + 2, text.lastIndexOf('\r\n\r\n') + 4, 0);
}

const isSse = (e: LoggedExchange) =>
  e.response?.headers.some((h) => h.name.toLowerCase() === 'content-type' && h.value.toLowerCase().startsWith('text/event-stream')) ?? false;

/**
 * Drops the oldest body chunks, oldest exchange first, until at least `excess` events are gone
 * (or nothing more can go), and returns how many events went. `counts(e)[i]` is how many events
 * the analysis completed with chunk i of `e`. Cuts fall where an event ends, so what is kept
 * parses as it did: after a chunk that ends on a blank line, or, in an event stream, inside the
 * chunk, after its last blank line (network reads rarely end on an event's boundary, and a cap
 * that could only cut there would stop cutting). A body whose events come only at its end
 * (JSON) is never cut. The exchanges themselves stay (their requests and how they ended).
 */
export function evictOldestEvents(log: readonly LoggedExchange[], counts: (e: LoggedExchange) => number[] | undefined, excess: number): number {
  let evicted = 0;
  for (const e of log) {
    if (evicted >= excess) break;
    const perChunk = counts(e);
    if (!perChunk || e.superseded) continue;
    const sse = isSse(e);
    let cut = 0;
    let tail = 0; // where the kept text starts inside the last cut chunk (0: the chunk goes whole)
    let dropped = 0;
    let run = 0;
    for (let i = 0; i < e.chunks.length && evicted + dropped < excess; i++) {
      run += perChunk[i] ?? 0;
      if (run <= dropped) continue;
      const data = e.chunks[i]!.data;
      const at = endsEvent(data) ? 0 : sse ? afterLastBlankLine(data) : -1;
      if (at < 0 || (at === 0 && !endsEvent(data))) continue;
      (cut = i + 1), (tail = at), (dropped = run);
    }
    if (cut === 0) continue;
    const last = e.chunks[cut - 1]!;
    // The start of the next event stays, as the first kept chunk; it completes nothing itself.
    const rest = tail > 0 ? [{ time: last.time, data: last.data.slice(tail) }] : [];
    e.chunks.splice(0, cut, ...rest);
    perChunk.splice(0, cut, ...rest.map(() => 0));
    evicted += dropped;
  }
  return evicted;
}
