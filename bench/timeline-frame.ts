/**
 * Timeline frame time for 1k, 100k and 1M events, and the ratios 100k/1k and 1M/1k (targets: at
 * most 1.5 and 2). Measured on a real canvas in headless Chromium; `--node` measures the drawing
 * code alone against a no-op context. Baselines come from the same run.
 *
 *   npx tsx bench/timeline-frame.ts [--node] [--samples 30]
 */
import { resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { build } from 'vite';
import type { Ctx } from '../src/panel/timeline/ctx';
import { measure, type FrameResult } from './timeline-frame-work';
import { CHROMIUM_FLAGS } from '../demo/launch/chromium';

const COUNTS = [1_000, 100_000, 1_000_000];
const WIDTH = 1200;
const HEIGHT = 260;
const args = process.argv.slice(2);
const frames = Number(args[args.indexOf('--samples') + 1]) || 30;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function inChromium(): Promise<FrameResult[]> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: resolve(import.meta.dirname, 'timeline-frame-page.ts'), formats: ['iife'], name: 'Bench', fileName: () => 'bench.js' } },
  });
  const outputs = Array.isArray(out) ? out : [out];
  const code = outputs.flatMap((o) => ('output' in o ? o.output : [])).find((c) => c.type === 'chunk')!.code;
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const profile = mkdtempSync(resolve(tmpdir(), 'msl-bench-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    pipe: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><body></body>');
    await page.addScriptTag({ content: code });
    return (await page.evaluate(`runBench(${JSON.stringify(COUNTS)}, ${WIDTH}, ${HEIGHT}, ${frames})`)) as FrameResult[];
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function inNode(): FrameResult[] {
  // A plain object, not a Proxy: a Proxy's trap would cost more than the drawing code it measures.
  const noop = () => undefined;
  const ctx = {} as Record<string, unknown>;
  for (const name of ['fillRect', 'clearRect', 'beginPath', 'closePath', 'moveTo', 'lineTo', 'stroke', 'fill', 'rect', 'fillText', 'setLineDash', 'save', 'restore']) ctx[name] = noop;
  return measure(ctx as unknown as Ctx, COUNTS, WIDTH, HEIGHT, frames, noop);
}

const where = args.includes('--node') ? 'node (no-op context)' : 'chromium canvas';
const results = args.includes('--node') ? inNode() : await inChromium();
const [base, mid, top] = results as [FrameResult, FrameResult, FrameResult];
console.log(`timeline-frame: ${WIDTH}x${HEIGHT} px, median of ${frames} samples of 5 frames, ${where}`);
for (const r of results) console.log(`  ${String(r.events).padStart(9)} events   fit ${r.fit.toFixed(3)} ms   1k-event window ${r.zoomed.toFixed(3)} ms`);
const ratio = (a: number, b: number) => (a / b).toFixed(2);
console.log(`  ratio 100k/1k  fit ${ratio(mid.fit, base.fit)}  window ${ratio(mid.zoomed, base.zoomed)}   (target <= 1.5)`);
console.log(`  ratio 1M/1k    fit ${ratio(top.fit, base.fit)}  window ${ratio(top.zoomed, base.zoomed)}   (target <= 2)`);
