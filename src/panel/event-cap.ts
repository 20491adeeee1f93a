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

/**
 * What the analysis said of each kept chunk of an exchange as it fed it: how many events the chunk
 * completed, and where its complete events end in its text (`Analyzer.chunk`; -1: nowhere).
 */
export interface ChunkMarks {
  events: number[];
  ends: number[];
}

/**
 * Drops the oldest body chunks, oldest exchange first, until at least `excess` events are gone
 * (or nothing more can go), and returns how many events went. Cuts fall where the analysis said
 * a chunk's complete events end, so what is kept reads as it did: after a whole chunk, or inside
 * one, keeping the start of the event it ends in (network reads rarely end on an event's
 * boundary, and a cap that could only cut there would stop cutting). A body whose events come
 * only at its end (JSON) has no such place and is never cut. The exchanges themselves stay (their
 * requests and how they ended).
 */
export function evictOldestEvents(log: readonly LoggedExchange[], marksOf: (e: LoggedExchange) => ChunkMarks | undefined, excess: number): number {
  let evicted = 0;
  for (const e of log) {
    if (evicted >= excess) break;
    const marks = marksOf(e);
    if (!marks) continue;
    let cut = 0;
    let tail = 0; // where the kept text starts inside the last cut chunk
    let dropped = 0;
    let run = 0;
    for (let i = 0; i < e.chunks.length && evicted + dropped < excess; i++) {
      run += marks.events[i] ?? 0;
      const end = marks.ends[i] ?? -1;
      if (run <= dropped || end < 0) continue;
      (cut = i + 1), (tail = end), (dropped = run);
    }
    if (cut === 0) continue;
    const last = e.chunks[cut - 1]!;
    // The start of the next event stays, as the first kept chunk; it completes nothing itself.
    const rest = tail < last.data.length ? [{ time: last.time, data: last.data.slice(tail) }] : [];
    e.chunks.splice(0, cut, ...rest);
    marks.events.splice(0, cut, ...rest.map(() => 0));
    marks.ends.splice(0, cut, ...rest.map(() => -1));
    evicted += dropped;
  }
  return evicted;
}
