/**
 * The benchmark suite: every row of issue 6 in one table, and `bench/results.json`.
 *
 *   npm run bench              the figures of record (under 10 minutes on 2 cores)
 *   npm run bench -- --smoke   small inputs: proves every benchmark runs (the CI smoke test)
 *
 * Each benchmark runs in a child process of its own: one that ran before it would otherwise
 * leave its heap (the core's holds hundreds of megabytes) for this process's collector to mark
 * and shrink while the next one measures.
 *
 * The core's rows run the core as the CLI ships it: bundled by vite (vite.bench.config.ts) and
 * run by plain `node`, not under tsx's loader. Under tsx the same core measured 1.4-2.0x
 * JSON.parse where its bundle measured 1.3-1.5x, in runs taken in turns, while JSON.parse and
 * framing measured the same in both: the loader slowed only the figure, not the baselines.
 *
 * The process exits 0 whether or not the targets are met: the table is the verdict, and a noisy
 * machine should not fail a build. It exits 1 only when a benchmark could not run.
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { measureCliHar } from './cli-har';
import { measureGuardLatency } from './guard-latency';
import { measureLiveLatency } from './live-latency';
import { measurePageTap } from './page-tap';
import { measurePanelImport } from './panel-import';
import { measurePanelMainThread } from './panel-main-thread';
import { measureProxy } from './proxy';
import { sendRows, type BenchRow, type BenchScale } from './row';
import { measureTimelineFrame } from './timeline-frame';

const scale: BenchScale = process.argv.includes('--smoke') ? 'smoke' : 'full';
const out = resolve(import.meta.dirname, scale === 'smoke' ? 'results.smoke.json' : 'results.json');

const root = resolve(import.meta.dirname, '..');
/** The core's rows: the group that runs from its build under plain node (see above), not this file. */
const CORE = 'core';
const CORE_BUILD = { config: resolve(root, 'vite.bench.config.ts'), entry: resolve(root, 'dist/bench/core.js') };

/** The benchmarks this file runs in a child of its own, after {@link CORE}. */
const benches: Record<string, (scale: BenchScale) => BenchRow[] | Promise<BenchRow[]>> = {
  timeline: measureTimelineFrame,
  'live latency': measureLiveLatency,
  'panel main thread': measurePanelMainThread,
  'page tap': measurePageTap,
  'guard latency': measureGuardLatency,
  proxy: measureProxy,
  'cli har': measureCliHar,
  'panel import': measurePanelImport,
};
/** Set in a child: the one benchmark it runs, whose rows it sends to its parent. */
const GROUP_FLAG = '--group';

/**
 * Runs one benchmark in a fresh process for its rows: the core's build under plain node, or this
 * file with the same loader flags.
 */
function inChild(name: string): Promise<BenchRow[]> {
  const smoke = scale === 'smoke' ? ['--smoke'] : [];
  return new Promise((done, fail) => {
    // 'advanced' serialization keeps NaN and Infinity, which a row may hold when a run failed.
    const child =
      name === CORE
        ? fork(CORE_BUILD.entry, smoke, { serialization: 'advanced', execArgv: [] })
        : fork(import.meta.filename, [GROUP_FLAG, name, ...smoke], { serialization: 'advanced' });
    let rows: BenchRow[] | null = null;
    child.on('message', (message) => void (rows = message as BenchRow[]));
    child.on('error', fail);
    child.on('exit', (code, signal) => (rows && code === 0 ? done(rows) : fail(new Error(`bench: ${name} exited with ${signal ?? code} before sending its rows`))));
  });
}

function format(value: number, unit: BenchRow['unit']): string {
  if (!Number.isFinite(value)) return String(value);
  return unit === 'x' ? `${value.toFixed(2)} x` : `${value.toFixed(value >= 100 ? 0 : 1)} ${unit}`;
}

function table(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [
    r.name,
    format(r.value, r.unit),
    Number.isFinite(r.target) ? `${r.better === 'lower' ? '<=' : '>='} ${format(r.target, r.unit)}` : 'none',
    !Number.isFinite(r.target) ? 'info' : r.pass ? 'pass' : 'FAIL',
    r.baseline,
    r.detail,
  ]);
  const head = ['row', 'value', 'target', '', 'measured against', 'figures'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((text, i) => (i === c.length - 1 ? text : text.padEnd(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** In a child: runs its one benchmark, sends the rows, and exits once they are sent. */
async function runGroup(name: string | undefined): Promise<void> {
  const measure = name === undefined ? undefined : benches[name];
  if (!measure || !process.send) throw new Error(`bench: ${GROUP_FLAG} takes one of ${Object.keys(benches).join(', ')}, in a child of bench/run.ts`);
  sendRows(await measure(scale));
}

async function runSuite(): Promise<void> {
  const rows: BenchRow[] = [];
  const started = performance.now();
  await build({ configFile: CORE_BUILD.config });
  for (const name of [CORE, ...Object.keys(benches)]) {
    const t0 = performance.now();
    rows.push(...(await inChild(name)));
    console.error(`bench: ${name} took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  console.log(`\nMCP Stream Lens benchmarks (${scale}), ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  console.log(table(rows));
  writeFileSync(out, `${JSON.stringify(rows.map(({ name, value, target, pass, better, unit, baseline, detail }) => ({ name, value, target, pass, better, unit, baseline, detail })), null, 2)}\n`);
  console.log(`\nwrote ${out}`);
}

if (process.argv.includes(GROUP_FLAG)) await runGroup(process.argv[process.argv.indexOf(GROUP_FLAG) + 1]);
else await runSuite();
