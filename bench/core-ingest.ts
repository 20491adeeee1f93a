/**
 * Core ingest: analysing generated MCP SSE traffic, as a ratio to plain JSON.parse of the same
 * payloads measured in the same run (the floor: every event's data must be parsed once).
 *
 *   npx tsx bench/core-ingest.ts [megabytes=100]
 */
import { createAnalyzer } from '../src/core';
import { generateTraffic } from './traffic';
import { bestOf, mb } from './timing';

const megabytes = Number(process.argv[2] ?? 100);
const traffic = generateTraffic(megabytes * 1024 * 1024);
const headers = [{ name: 'mcp-session-id', value: 'bench' }];
const sse = [{ name: 'content-type', value: 'text/event-stream' }, ...headers];

function analyseAll(): number {
  const analyzer = createAnalyzer();
  for (const stream of traffic.streams) {
    const index = analyzer.open({ method: 'POST', url: 'http://127.0.0.1/mcp', headers, body: stream.request, startTime: 0 });
    analyzer.respond(index, { status: 200, headers: sse });
    for (const chunk of stream.chunks) analyzer.chunk(index, chunk);
    analyzer.end(index, { state: 'complete', time: 1 });
  }
  return analyzer.report().summary.events;
}

function parseAll(): number {
  let n = 0;
  for (const payload of traffic.payloads) if (JSON.parse(payload)) n++;
  return n;
}

if (analyseAll() !== traffic.payloads.length) throw new Error('the analysis lost events');
const runs = 3;
const baseline = bestOf(runs, parseAll);
const core = bestOf(runs, analyseAll);
const ratio = core / baseline;
console.log(`core-ingest: ${mb(traffic.bytes)}, ${traffic.payloads.length} events, ${traffic.streams.length} streams`);
console.log(`  JSON.parse baseline  ${baseline.toFixed(0)} ms`);
console.log(`  core analyse         ${core.toFixed(0)} ms  (${(traffic.bytes / 1024 / 1024 / (core / 1000)).toFixed(0)} MB/s)`);
console.log(`  ratio                ${ratio.toFixed(2)} x JSON.parse`);
