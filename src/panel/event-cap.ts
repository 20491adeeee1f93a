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

/**
 * Drops the oldest body chunks, oldest exchange first, until at least `excess` events are gone
 * (or nothing more can go), and returns how many events went. `counts(e)[i]` is how many events
 * the analysis completed with chunk i of `e`. Cuts fall only where a chunk ends an event, so what
 * is kept parses as it did; a body whose events come only at its end (JSON) is never cut. The
 * exchanges themselves stay (their requests and how they ended), with fewer events.
 */
export function evictOldestEvents(log: readonly LoggedExchange[], counts: (e: LoggedExchange) => number[] | undefined, excess: number): number {
  let evicted = 0;
  for (const e of log) {
    if (evicted >= excess) break;
    const perChunk = counts(e);
    if (!perChunk || e.superseded) continue;
    let cut = 0;
    let dropped = 0;
    let run = 0;
    for (let i = 0; i < e.chunks.length && evicted + dropped < excess; i++) {
      run += perChunk[i] ?? 0;
      if (run > dropped && endsEvent(e.chunks[i]!.data)) (cut = i + 1), (dropped = run);
    }
    if (cut === 0) continue;
    e.chunks.splice(0, cut);
    perChunk.splice(0, cut);
    evicted += dropped;
  }
  return evicted;
}
