import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchScale } from './row';

/** One row as a line of text, for the browser benchmarks' own command lines. */
export function formatRow(r: BenchRow): string {
  const value = Number.isFinite(r.value) ? r.value.toFixed(r.unit === 'ms' ? 1 : 3) : String(r.value);
  const verdict = Number.isFinite(r.target) ? `target ${r.better === 'lower' ? '<=' : '>='} ${r.target}  ${r.pass ? 'pass' : 'FAIL'}` : 'info';
  return `${r.name.padEnd(15)} ${value} ${r.unit}  ${verdict}  (vs ${r.baseline})\n    ${r.detail}`;
}

/**
 * Runs `measure` when `moduleUrl` is the script node was started with (`npx tsx bench/x.ts
 * [--smoke]`), and prints its rows; does nothing when the module is imported (bench/run.ts).
 */
export async function runIfMain(moduleUrl: string, measure: (scale: BenchScale) => Promise<BenchRow[]>): Promise<void> {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== resolve(process.argv[1])) return;
  const started = performance.now();
  const rows = await measure(process.argv.includes('--smoke') ? 'smoke' : 'full');
  for (const r of rows) console.log(formatRow(r));
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
