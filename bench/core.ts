/**
 * The analysis core's rows: ingest speed against its two floors (JSON.parse of the payloads, and
 * SSE framing alone), incremental against one-shot analysis, and retained memory per event.
 * Every baseline is measured in the same process, in turns with the figure it divides, as CPU
 * time (see `bestInTurns`).
 *
 *   npm run bench:core [-- --smoke]   (builds it for plain node first; see bench/run.ts)
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { createParser } from 'eventsource-parser';
import { createAnalyzer, type AnalysisOptions, type Analyzer, type BodyChunk } from '../src/core';
import { Utf8Chunks } from '../src/core/read/utf8-chunks';
import { row, sendRows, type BenchRow, type BenchScale } from './row';
import { bestInTurns, mb } from './timing';
import { generateTraffic, type Traffic } from './traffic';

/**
 * `runs`: turns per figure, of which the best counts. The core's first runs in a process are slow
 * while V8 compiles it and grows its heap to the analysis's size, then hold steady. Eight turns
 * let the figure be a warm one, as it is in a panel that has analysed for a while; the baselines get the same turns.
 */
const SIZES = {
  full: { ingestBytes: 100 * 1024 * 1024, events: 1_000_000, runs: 8 },
  smoke: { ingestBytes: 2 * 1024 * 1024, events: 20_000, runs: 2 },
} as const;
/** Collections a memory reading may take before it settles (see `memoryRow`). */
const MAX_READINGS = 10;
/** The live panel asks for a report about every 100 ms; at 10,000 events/s that is every 1,000. */
const REPORT_EVERY_EVENTS = 1_000;

const headers = [{ name: 'mcp-session-id', value: 'bench' }];
const sseHeaders = [{ name: 'content-type', value: 'text/event-stream' }, ...headers];

/** Feeds every stream of `traffic` as one tool call each; `chunksOf` decides how bodies are cut. */
export function analyse(traffic: Traffic, chunksOf: (stream: Traffic['streams'][number]) => readonly BodyChunk[], reportEvery = Infinity, options: AnalysisOptions = {}): Analyzer {
  const analyzer = createAnalyzer(options);
  let sinceReport = 0;
  for (const stream of traffic.streams) {
    const index = analyzer.open({ method: 'POST', url: 'http://127.0.0.1/mcp', headers, body: stream.request, startTime: 0 });
    analyzer.respond(index, { status: 200, headers: sseHeaders });
    for (const chunk of chunksOf(stream)) {
      analyzer.chunk(index, chunk);
      // Approximate events per chunk from its size, so the report cadence follows the traffic.
      sinceReport += chunk.data.length / traffic.bytesPerEvent;
      if (sinceReport >= reportEvery) {
        analyzer.report();
        sinceReport = 0;
      }
    }
    analyzer.end(index, { state: 'complete', time: 1 });
  }
  analyzer.report();
  return analyzer;
}

export const asLive = (stream: Traffic['streams'][number]) => stream.chunks;
/**
 * Each chunk in a buffer of its own, made as it is fed, as a capture hands chunks over: the
 * analyzer may keep a chunk (see TextStore.borrow), and what it keeps must count as its growth.
 */
const asFreshCopies = (stream: Traffic['streams'][number]): BodyChunk[] => stream.chunks.map((c) => ({ time: c.time, data: (c.data as Uint8Array).slice() }));
/** Each body as the single chunk a finished HAR entry gives. */
function asWhole(traffic: Traffic): (stream: Traffic['streams'][number]) => readonly BodyChunk[] {
  const whole = new Map(traffic.streams.map((s) => [s, [{ time: 0, data: concat(s.chunks) }]]));
  return (stream) => whole.get(stream)!;
}

function concat(chunks: readonly BodyChunk[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.data.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c.data as Uint8Array, at);
    at += c.data.length;
  }
  return out;
}

/** Each payload is a slice of one string (see Traffic.payloads); JSON.parse reads a slice in place. */
function parseAll({ payloads: { text, ends } }: Traffic): void {
  let start = 0;
  for (const end of ends) {
    JSON.parse(text.slice(start, end));
    start = end;
  }
}

/**
 * What the core cannot do without: decode the bytes and frame them with eventsource-parser. It
 * decodes as the core does (one-shot where no character is cut, see utf8-chunks.ts), so the
 * ratio is not flattered by a slower decoder in the baseline.
 */
export function frameAll(traffic: Traffic): number {
  let events = 0;
  for (const stream of traffic.streams) {
    const decoder = new Utf8Chunks();
    const parser = createParser({ onEvent: () => void events++ });
    for (const chunk of stream.chunks) parser.feed(decoder.decode(chunk.data as Uint8Array));
  }
  return events;
}

function eventsOf(analyzer: Analyzer): number {
  return analyzer.report().summary.events;
}

function ingestRows(scale: BenchScale): BenchRow[] {
  const { ingestBytes, runs } = SIZES[scale];
  const traffic = generateTraffic(ingestBytes);
  const events = traffic.events;
  if (eventsOf(analyse(traffic, asLive)) !== events) throw new Error('the analysis lost events');
  if (frameAll(traffic) !== events) throw new Error('the framing lost events');
  const [parse, frame, core] = bestInTurns(runs, [() => parseAll(traffic), () => frameAll(traffic), () => analyse(traffic, asLive)]) as [number, number, number];
  const size = `${mb(traffic.bytes)}, ${events} events`;
  return [
    // Beside the figure, what framing and JSON.parse alone cost: the general path pays both per
    // event; a block template (block-template.ts) pays neither, but its regex does both jobs.
    row({ name: 'core-ingest', value: core / parse, target: 1.3, better: 'lower', unit: 'x', baseline: 'JSON.parse of the payloads', detail: `${size}: ${core.toFixed(0)} ms vs ${parse.toFixed(0)} ms; framing + JSON.parse alone is ${((frame + parse) / parse).toFixed(2)}x` }),
    // Beside the figure, JSON.parse's own ratio to framing: an analysis that parsed every payload
    // could not go below it plus 1. Information only (issue 23): `npm run bench:floor` showed that
    // no analysis applying the rules can come near framing alone, so the row has no target.
    row({ name: 'core-vs-framing', value: core / frame, target: Infinity, better: 'lower', unit: 'x', baseline: 'decode + eventsource-parser alone', detail: `${size}: ${core.toFixed(0)} ms vs ${frame.toFixed(0)} ms; JSON.parse of the payloads alone is ${(parse / frame).toFixed(2)}x framing` }),
  ];
}

function incrementalRow(traffic: Traffic, runs: number): BenchRow {
  const whole = asWhole(traffic);
  const events = traffic.events;
  if (eventsOf(analyse(traffic, whole)) !== events) throw new Error('the one-shot analysis lost events');
  const [once, live] = bestInTurns(runs, [() => analyse(traffic, whole), () => analyse(traffic, asLive, REPORT_EVERY_EVENTS)]) as [number, number];
  return row({
    name: 'incremental',
    value: live / once,
    target: 1.2,
    better: 'lower',
    unit: 'x',
    baseline: 'the same events analysed at once',
    detail: `${events} events in 1-64 KB chunks, report every ${REPORT_EVERY_EVENTS}: ${live.toFixed(0)} ms vs ${once.toFixed(0)} ms`,
  });
}

/**
 * A real full GC, so retained sizes are not blurred by garbage that merely survived. Dead
 * ArrayBuffers are freed in that collection, not later by a sweeper thread: with the sweeper, a
 * reading right after gc() may still count dropped buffers (a previous row's dead analyzers), and
 * the figure could come out below zero.
 */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  setFlagsFromString('--no-concurrent-array-buffer-sweeping');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/**
 * Retained memory per event beyond its raw bytes: the JS heap plus ArrayBuffer contents, where
 * the analyzer keeps its columns and the events' text (UTF-8 blocks, and chunks it kept whole).
 * The chunks are fed as fresh copies the bench drops, so the growth is what the analyzer keeps:
 * the text (about the raw bytes) plus its own records, which is the figure.
 */
function memoryRow(traffic: Traffic): BenchRow {
  const { perEvent, growth } = memoryPerEvent(traffic);
  return row({
    name: 'memory-per-event',
    value: perEvent,
    target: 200,
    better: 'lower',
    unit: 'B/event',
    baseline: 'heap and ArrayBuffers without the analyzer, plus the raw bytes',
    detail: `${traffic.events} events, ${mb(traffic.bytes)} raw: heap and ArrayBuffers grew ${mb(growth)}`,
  });
}

/** What {@link memoryRow} measures, for an analysis with `options`. */
export function memoryPerEvent(traffic: Traffic, options: AnalysisOptions = {}): { perEvent: number; growth: number } {
  const gc = collector();
  const events = traffic.events;
  const payloadBytes = traffic.bytes;
  // Collect until two readings agree: a collection can free what the one before only made
  // unreachable (weak references, finalizers).
  const retained = (): number => {
    let last = NaN;
    for (let reading = 0; reading < MAX_READINGS; reading++) {
      gc();
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      if (heapUsed + arrayBuffers === last) break;
      last = heapUsed + arrayBuffers;
    }
    return last;
  };
  const before = retained();
  let analyzer: Analyzer | null = analyse(traffic, asFreshCopies, Infinity, options);
  const after = retained();
  if (eventsOf(analyzer) !== events) throw new Error('the analysis lost events');
  analyzer = null;
  // The process without the analyzer, read before it and again after it is dropped; the lower
  // reading counts. Dead ArrayBuffers are sometimes still counted after the collections settle
  // (a previous row's buffers, counted before the analysis and gone after it), which would put
  // the figure below zero. A late free can only raise a
  // reading, so the lower one is the nearer.
  const growth = after - Math.min(before, retained());
  return { perEvent: (growth - payloadBytes) / events, growth };
}

export function measureCore(scale: BenchScale): BenchRow[] {
  const rows = ingestRows(scale);
  const traffic = generateTraffic(Infinity, 2, SIZES[scale].events);
  rows.push(incrementalRow(traffic, SIZES[scale].runs), memoryRow(traffic));
  return rows;
}

// Run alone (`npm run bench:core`) it prints its rows; as a child of bench/run.ts it sends them.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = measureCore(process.argv.includes('--smoke') ? 'smoke' : 'full');
  if (process.send) sendRows(rows);
  else for (const r of rows) console.log(`${r.name.padEnd(17)} ${r.value.toFixed(2)} ${r.unit}  (target ${r.better === 'lower' ? '<=' : '>='} ${r.target})  ${r.detail}`);
}
