/**
 * Does the packed store earn its lines? The same analysis, on the core rows' traffic, with each
 * structure of core/store/ packed or as its plain twin (an array of records, a `Map` of ids):
 * CPU time of ingest (best of turns, as bench/core.ts) and retained memory per event.
 *
 *   npm run bench:store [-- --smoke]   (the code as it ships: a vite bundle under plain node)
 */
import type { AnalysisOptions } from '../src/core';
import { analyse, asLive, memoryPerEvent } from './core';
import { bestInTurns, mb } from './timing';
import { generateTraffic } from './traffic';

const SIZES = {
  full: { bytes: 100 * 1024 * 1024, events: 1_000_000, runs: 6 },
  smoke: { bytes: 2 * 1024 * 1024, events: 20_000, runs: 2 },
} as const;

const CHOICES: readonly { name: string; store: AnalysisOptions['store'] }[] = [
  { name: 'packed (table and ids)', store: 'packed' },
  { name: 'plain table, packed ids', store: { table: 'plain', ids: 'packed' } },
  { name: 'packed table, plain ids (Map)', store: { table: 'packed', ids: 'plain' } },
  { name: 'plain (table and ids)', store: 'plain' },
];

export interface StoreFigure {
  name: string;
  ms: number;
  bytesPerEvent: number;
}

export function measureStore(scale: keyof typeof SIZES): { events: number; bytes: number; figures: StoreFigure[] } {
  const { bytes, events, runs } = SIZES[scale];
  const traffic = generateTraffic(bytes);
  const times = bestInTurns(runs, CHOICES.map(({ store }) => () => void analyse(traffic, asLive, Infinity, { store })));
  const memoryTraffic = generateTraffic(Infinity, 2, events);
  const figures = CHOICES.map(({ name, store }, i) => ({ name, ms: times[i]!, bytesPerEvent: memoryPerEvent(memoryTraffic, { store }).perEvent }));
  return { events: traffic.events, bytes: traffic.bytes, figures };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { events, bytes, figures } = measureStore(process.argv.includes('--smoke') ? 'smoke' : 'full');
  const [packed] = figures;
  console.log(`ingest of ${events} events (${mb(bytes)}), CPU time best of turns; memory beyond the raw bytes, per event:`);
  for (const f of figures) {
    console.log(`${f.name.padEnd(32)} ${f.ms.toFixed(0).padStart(6)} ms (${(f.ms / packed!.ms).toFixed(2)}x)  ${f.bytesPerEvent.toFixed(1).padStart(7)} B/event (${(f.bytesPerEvent / packed!.bytesPerEvent).toFixed(2)}x)`);
  }
}
