/**
 * Diagnostic: where panel-import's long tasks go. One import of the generated HAR in the inline
 * shell under a Chromium trace (with the V8 sampling profiler); prints each main-thread task over
 * 50 ms of thread time (OVER_MS=… for another bound) with its heaviest functions (self time from
 * samples) and its top-level trace events.
 *
 *   npx tsx bench/panel-import-trace.ts [MB] [--keep trace.json] [--no-samples]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElementHandle } from 'puppeteer-core';
import { launchChromium } from '../test/e2e/support/chromium';
import { buildShell, serveShell } from '../test/e2e/support/shell-server';
import { writeBenchHar } from './har-generate';
import { PAINT_OBSERVER } from './paint-observer-browser';

const mbArg = Number(process.argv[2] ?? 100);
const keepAt = process.argv.indexOf('--keep');
/** Without the sampling profiler: task lengths closer to an untraced run, no function names. */
const noSamples = process.argv.includes('--no-samples');
const dir = mkdtempSync(join(tmpdir(), 'msl-trace-'));
const tracePath = keepAt > 0 ? process.argv[keepAt + 1]! : join(dir, 'trace.json');
const [shellDir, chromium] = await Promise.all([buildShell(), launchChromium(null)]);
const server = await serveShell(shellDir);
try {
  const file = join(dir, 'import.har');
  await writeBenchHar(file, mbArg * 1024 * 1024);
  const page = await chromium.browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.evaluateOnNewDocument(PAINT_OBSERVER);
  await page.goto(`${server.origin}/shell/index.html?theme=light`);
  const input = (await page.waitForSelector('[data-testid="import-har-empty-input"]')) as ElementHandle<HTMLInputElement>;
  await page.tracing.start({
    path: tracePath,
    categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', ...(noSamples ? [] : ['disabled-by-default-v8.cpu_profiler']), 'v8', 'blink'],
  });
  await input.uploadFile(file);
  await page.waitForFunction(`window.__paints.some((p) => p.events > 0)`, { polling: 50, timeout: 300_000 });
  await page.waitForFunction(`!document.querySelector('[data-testid="import-progress"]')`, { polling: 50, timeout: 300_000 });
  await page.evaluate(`new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)))`);
  await page.tracing.stop();
  analyse(JSON.parse(readFileSync(tracePath, 'utf8')).traceEvents);
  console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
} finally {
  await chromium.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

interface Ev { name: string; cat: string; ph: string; ts: number; dur?: number; pid: number; tid: number; id?: string; args?: any }

function analyse(events: Ev[]): void {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.name === 'RunTask' && (x.dur ?? 0) > 50_000));
  if (!main) throw new Error('no renderer main thread');
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const overUs = Number(process.env.OVER_MS ?? 50) * 1000;
  // By thread time (tdur): on a loaded machine wall time counts the waits for a core too.
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && ((e as Ev & { tdur?: number }).tdur ?? 0) > overUs);
  // Profile: nodes and samples (ts) from ProfileChunk events of the main thread's profile.
  const nodes = new Map<number, { name: string; url: string; line: number; parent?: number }>();
  const samples: { ts: number; node: number }[] = [];
  const profile = onMain.find((e) => e.name === 'Profile');
  let ts: number = profile?.args.data.startTime ?? 0;
  for (const e of events.filter((x) => profile && x.pid === main.pid && x.name === 'ProfileChunk' && x.id === profile.id)) {
    const d = e.args.data;
    for (const n of d.cpuProfile?.nodes ?? []) nodes.set(n.id, { name: n.callFrame.functionName || '(anon)', url: n.callFrame.url ?? '', line: n.callFrame.lineNumber, parent: n.parent });
    const s = d.cpuProfile?.samples ?? [];
    const deltas = d.timeDeltas ?? [];
    for (let i = 0; i < s.length; i++) {
      ts += deltas[i] ?? 0;
      samples.push({ ts, node: s[i] });
    }
  }
  const label = (id: number) => {
    const n = nodes.get(id)!;
    return `${n.name} ${n.url.split('/').pop()}:${n.line + 1}`;
  };
  // Where the whole import's main-thread time went: inclusive sample time of a few entry points.
  const inclusive = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) {
    const dt = (samples[i + 1]?.ts ?? samples[i]!.ts) - samples[i]!.ts;
    const names = new Set<string>();
    for (let id: number | undefined = samples[i]!.node; id !== undefined; id = nodes.get(id)?.parent) names.add(nodes.get(id)!.name);
    for (const name of ['append', 'sessionMarks', 'drawTimeline', '(program)', '(garbage collector)', '(idle)', '(root)']) if (names.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
  }
  console.log(`whole trace, inclusive ms: ${[...inclusive].map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`).join(', ')}`);
  // The main thread's heaviest functions over the whole import: where its time goes between the long tasks too.
  const heaviest = new Map<string, number>();
  for (let i = 0; i < samples.length; i++) {
    const dt = (samples[i + 1]?.ts ?? samples[i]!.ts) - samples[i]!.ts;
    const seen = new Set<string>();
    for (let id: number | undefined = samples[i]!.node; id !== undefined; id = nodes.get(id)?.parent) {
      const k = label(id);
      if (!seen.has(k)) seen.add(k), heaviest.set(k, (heaviest.get(k) ?? 0) + dt);
    }
  }
  const wholeTop = Number(process.env.WHOLE_TOP ?? 0);
  if (wholeTop > 0) console.log(`whole trace, heaviest (inclusive):\n${[...heaviest].sort((a, b) => b[1] - a[1]).slice(0, wholeTop).map(([k, v]) => `   ${(v / 1000).toFixed(0).padStart(6)} ms ${k}`).join('\n')}`);
  console.log(`${tasks.length} tasks over ${overUs / 1000} ms of thread time on the renderer main thread`);
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    console.log(`\n== task ${(((task as Ev & { tdur?: number }).tdur ?? 0) / 1000).toFixed(0)} ms thread time (${(task.dur! / 1000).toFixed(0)} ms wall) at +${((task.ts - tasks[0]!.ts) / 1000).toFixed(0)} ms`);
    const children = onMain.filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts < end && (e.dur ?? 0) > 5_000 && e !== task);
    for (const c of children.slice(0, 25)) console.log(`   ${c.name} ${(c.dur! / 1000).toFixed(1)} ms ${c.args?.data?.functionName ?? ''} ${c.args?.data?.url?.split('/').pop() ?? ''}`);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts < end);
    for (let i = 0; i < inTask.length; i++) {
      const dt = (inTask[i + 1]?.ts ?? end) - inTask[i]!.ts;
      const l = label(inTask[i]!.node);
      self.set(l, (self.get(l) ?? 0) + dt);
      const seen = new Set<string>();
      for (let id: number | undefined = inTask[i]!.node; id !== undefined; id = nodes.get(id)?.parent) {
        const k = label(id);
        if (seen.has(k)) continue;
        seen.add(k);
        total.set(k, (total.get(k) ?? 0) + dt);
      }
    }
    const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `      ${(v / 1000).toFixed(1).padStart(6)} ms ${k}`).join('\n');
    console.log(`  self:\n${top(self, 12)}\n  total:\n${top(total, Number(process.env.TOP ?? 25))}`);
  }
}
