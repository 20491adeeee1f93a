/**
 * The CLI at the user's scale (issue 23), whole processes on a generated HAR (bench/har-generate.ts):
 *
 * - `cli-har`: the wall time of `check --format json` ÷ that of a process that only reads the
 *   file and `JSON.parse`s it (bench/har-parse-only.mjs), best of several turns taken in turns;
 * - `cli-har-memory`: the peak RSS of that `check` ÷ the file's size;
 * - `cli-har-big` (`npm run bench:big`): the peak RSS of `check` on a 2 GB HAR, which must
 *   complete. It takes minutes (writing the file, then reading it), more than the suite's budget.
 *
 * The CLI runs as it ships (vite's bundle, dist/cli, under plain node). Each process carries
 * bench/process-usage.mjs, which reports its peak RSS and CPU time as the kernel counted them.
 * Files go to a fresh temporary folder, deleted after.
 *
 *   npx tsx bench/cli-har.ts [--smoke]      npm run bench:big
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { runIfMain } from './cli-browser';
import { writeBenchHar } from './har-generate';
import { row, type BenchRow, type BenchScale } from './row';
import { mb } from './timing';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/cli/run.js');
const USAGE = join(import.meta.dirname, 'process-usage.mjs');
const PARSE_ONLY = join(import.meta.dirname, 'har-parse-only.mjs');
const SIZES = {
  smoke: { bytes: 5 * 1024 * 1024, turns: 1, bigBytes: 20 * 1024 * 1024 },
  full: { bytes: 250 * 1024 * 1024, turns: 3, bigBytes: 2 * 1024 * 1024 * 1024 },
} as const;
const GIB = 1024 * 1024 * 1024;

interface Run {
  wallMs: number;
  cpuMs: number;
  maxRssBytes: number;
  code: number;
}

/** Runs `node --import process-usage.mjs ...args` to its end; its output is discarded. */
function runNode(args: readonly string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', USAGE, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let usage = '';
    let err = '';
    child.stdio[3]!.on('data', (d: Buffer) => (usage += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code === 2 || code === null || usage === '') return fail(new Error(`bench: ${args.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      done({ wallMs, code, ...(JSON.parse(usage) as { cpuMs: number; maxRssBytes: number }) });
    });
  });
}

const check = (file: string) => runNode([CLI, 'check', '--format', 'json', file]);
const parseOnly = (file: string) => runNode([PARSE_ONLY, file]);
const best = (runs: readonly Run[], key: keyof Run) => Math.min(...runs.map((r) => r[key]));

async function withHar<T>(bytes: number, use: (file: string, size: { bytes: number; events: number }) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'msl-bench-har-'));
  try {
    const file = join(dir, 'bench.har');
    return await use(file, await writeBenchHar(file, bytes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const buildCli = () => build({ configFile: join(ROOT, 'vite.cli.config.ts'), logLevel: 'warn' });

/** `cli-har` and `cli-har-memory`. */
export async function measureCliHar(scale: BenchScale): Promise<BenchRow[]> {
  const { bytes, turns } = SIZES[scale];
  await buildCli();
  return withHar(bytes, async (file, size) => {
    const checks: Run[] = [];
    const parses: Run[] = [];
    for (let i = 0; i < turns; i++) {
      checks.push(await check(file));
      parses.push(await parseOnly(file));
    }
    const [wall, baseWall] = [best(checks, 'wallMs'), best(parses, 'wallMs')];
    const [cpu, baseCpu] = [best(checks, 'cpuMs'), best(parses, 'cpuMs')];
    const rss = best(checks, 'maxRssBytes');
    const what = `${mb(size.bytes)} HAR, ${size.events.toLocaleString('en')} events`;
    return [
      row({
        name: 'cli-har',
        value: wall / baseWall,
        target: 1.3,
        better: 'lower',
        unit: 'x',
        baseline: 'a process that reads the file and JSON.parses it',
        detail: `${what}: ${wall.toFixed(0)} ms vs ${baseWall.toFixed(0)} ms wall, best of ${turns} in turns; CPU ${cpu.toFixed(0)} vs ${baseCpu.toFixed(0)} ms (${(cpu / baseCpu).toFixed(2)}x); load ${loadavg()[0]!.toFixed(1)}`,
      }),
      row({
        name: 'cli-har-memory',
        value: rss / size.bytes,
        target: 1.5,
        better: 'lower',
        unit: 'x',
        baseline: 'the file’s size',
        detail: `${what}: peak RSS ${mb(rss)}; the parse-only process peaks at ${mb(best(parses, 'maxRssBytes'))}`,
      }),
    ];
  });
}

/** `cli-har-big`: a 2 GB HAR is checked to its end, within 1 GiB. */
export async function measureCliHarBig(scale: BenchScale): Promise<BenchRow[]> {
  const { bigBytes } = SIZES[scale];
  await buildCli();
  return withHar(bigBytes, async (file, size) => {
    const run = await check(file);
    return [
      row({
        name: 'cli-har-big',
        value: run.maxRssBytes / 1024 / 1024,
        target: scale === 'full' ? GIB / 1024 / 1024 : 256,
        better: 'lower',
        unit: 'MiB',
        baseline: 'a fixed budget (1 GiB); the check must complete',
        detail: `${mb(size.bytes)} HAR, ${size.events.toLocaleString('en')} events: completed (exit ${run.code}) in ${(run.wallMs / 1000).toFixed(1)} s wall, ${(run.cpuMs / 1000).toFixed(1)} s CPU`,
      }),
    ];
  });
}

await runIfMain(import.meta.url, async (scale) => (process.argv.includes('--big') ? measureCliHarBig(scale) : measureCliHar(scale)));
