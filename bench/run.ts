/**
 * The benchmark suite: every row of issue 6 in one table, and `bench/results.json`.
 *
 *   npm run bench              the figures of record (under 10 minutes on 2 cores)
 *   npm run bench -- --smoke   small inputs: proves every benchmark runs (the CI smoke test)
 *
 * The process exits 0 whether or not the targets are met: the table is the verdict, and a noisy
 * machine should not fail a build. It exits 1 only when a benchmark could not run.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { measureCore } from './core';
import { measureLiveLatency } from './live-latency';
import { measurePageTap } from './page-tap';
import type { BenchRow, BenchScale } from './row';
import { measureTimelineFrame } from './timeline-frame';

const scale: BenchScale = process.argv.includes('--smoke') ? 'smoke' : 'full';
const out = resolve(import.meta.dirname, scale === 'smoke' ? 'results.smoke.json' : 'results.json');

const benches: [string, (scale: BenchScale) => BenchRow[] | Promise<BenchRow[]>][] = [
  ['core', measureCore],
  ['timeline', measureTimelineFrame],
  ['live latency', measureLiveLatency],
  ['page tap', measurePageTap],
];

function format(value: number, unit: BenchRow['unit']): string {
  if (!Number.isFinite(value)) return String(value);
  return unit === 'x' ? `${value.toFixed(2)} x` : `${value.toFixed(value >= 100 ? 0 : 1)} ${unit}`;
}

function table(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    format(r.value, r.unit),
    `${r.better === 'lower' ? '<=' : '>='} ${format(r.target, r.unit)}`,
    r.pass ? 'pass' : 'FAIL',
    r.baseline,
    r.detail,
  ]);
  const head = ['row', 'value', 'target', '', 'measured against', 'figures'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((text, i) => (i === c.length - 1 ? text : text.padEnd(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

const rows: BenchRow[] = [];
const started = performance.now();
for (const [name, measure] of benches) {
  const t0 = performance.now();
  rows.push(...(await measure(scale)));
  console.error(`bench: ${name} took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
console.log(`\nMCP Stream Lens benchmarks (${scale}), ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
console.log(table(rows));
writeFileSync(out, `${JSON.stringify(rows.map(({ name, value, target, pass, better, unit, baseline, detail }) => ({ name, value, target, pass, better, unit, baseline, detail })), null, 2)}\n`);
console.log(`\nwrote ${out}`);
