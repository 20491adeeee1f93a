/**
 * timeline-frame: the cost of one pan/zoom frame of the panel's timeline with 1M events loaded,
 * as a ratio to the same frame with 1k events (target <= 2). Measured in the inline shell
 * (dist/shell, the real panel on a plain page) in headless Chromium: the capture is replayed
 * through `?capture=` (with the "Events kept" setting at its maximum), then real key presses (+, Shift+Right, -, Shift+Left) go to the timeline
 * canvas and each frame is waited for through the panel's paint entry. A frame's cost is the
 * renderer main thread's busy time (CDP `Performance.getMetrics` TaskDuration: input handling,
 * Preact, style, layout and the canvas drawing), so the wait for the next vsync does not hide it,
 * less the harness's own cost (a key the timeline ignores, the same evaluations, no frame).
 * Both sizes live in their own browser context (own renderer process), measured in alternating
 * rounds; the value is the median of the per-round ratios.
 *
 *   npx tsx bench/timeline-frame.ts [--smoke]      (npm run bench:timeline)
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, normalize, resolve, sep } from 'node:path';
import type { Browser, CDPSession, KeyInput, Page } from 'puppeteer-core';
import { launchChromium } from '../test/e2e/support/chromium';
import { buildShell } from '../test/e2e/support/shell-server';
import { runIfMain } from './cli-browser';
import { PAINT_OBSERVER, paintCount, readPaints, waitForPaintOf } from './paint-observer-browser';
import { row, type BenchRow, type BenchScale } from './row';
import { MAX_EVENTS_SETTING } from '../src/panel/model/settings';
import { recordedCapture } from './timeline-frame-capture';

const SCALES = {
  smoke: { small: 1_000, large: 20_000, rounds: 2, frames: 4 },
  full: { small: 1_000, large: 1_000_000, rounds: 7, frames: 12 },
} as const;
/** Zoom in, pan right, zoom out, pan left: every frame moves the view, and a cycle returns. */
const KEYS = [['+'], ['Shift', 'ArrowRight'], ['-'], ['Shift', 'ArrowLeft']] as const;
const LOAD_TIMEOUT_MS = 240_000;
/** Where the inline shell keeps its settings (src/panel/shell/shell-adapter.ts). */
const SETTINGS_KEY = 'mcp-stream-lens/settings';

/** Serves dist/shell under /shell/ and the generated captures under /capture/<events>.json. */
async function serve(shellDir: string, captures: Map<number, string>) {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const capture = /^\/capture\/(\d+)\.json$/.exec(path);
    if (capture) {
      const body = captures.get(Number(capture[1]));
      return void (body ? res.writeHead(200, { 'content-type': 'application/json' }).end(body) : res.writeHead(404).end());
    }
    const file = normalize(resolve(shellDir, decodeURIComponent(path.replace(/^\/shell\//, ''))));
    if (!path.startsWith('/shell/') || !file.startsWith(shellDir + sep)) return void res.writeHead(404).end();
    const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }[extname(file)] ?? 'application/octet-stream';
    readFile(file).then((body) => res.writeHead(200, { 'content-type': type }).end(body), () => res.writeHead(404).end());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Loaded {
  events: number;
  page: Page;
  cdp: CDPSession;
  loadMs: number;
  /** Main-thread ms per frame, one figure per round. */
  frameMs: number[];
  /** The harness's own main-thread ms per frame (see `frames`), one figure per round. */
  harnessMs: number[];
  /** The canvas drawing alone, per frame (the paint entry's duration). */
  paintMs: number[];
}

async function open(browser: Browser, origin: string, events: number): Promise<Loaded> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  await page.evaluateOnNewDocument(PAINT_OBSERVER);
  // The panel keeps 100,000 events by default; a user looking at a million raises "Events kept"
  // to its maximum. The shell keeps its settings in localStorage.
  await page.evaluateOnNewDocument(`try { localStorage.setItem(${JSON.stringify(SETTINGS_KEY)}, '{"maxEvents":${MAX_EVENTS_SETTING}}') } catch {}`);
  const started = performance.now();
  await page.goto(`${origin}/shell/index.html?capture=/capture/${events}.json&theme=light`);
  await waitForPaintOf(page, events, LOAD_TIMEOUT_MS);
  const loadMs = performance.now() - started;
  await page.focus('[data-testid="timeline"] canvas');
  const cdp = await page.createCDPSession();
  await cdp.send('Performance.enable');
  return { events, page, cdp, loadMs, frameMs: [], harnessMs: [], paintMs: [] };
}

const taskSeconds = async (cdp: CDPSession): Promise<number> =>
  (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')!.value;

/**
 * `count` pan/zoom frames through real key presses; returns main-thread ms per frame. `idle`
 * presses a key the timeline ignores and waits for no paint: the harness's own cost (input
 * routing, the two evaluations per frame), subtracted from the frames' cost.
 */
async function frames(s: Loaded, count: number, idle = false): Promise<number> {
  await s.page.bringToFront();
  const before = await taskSeconds(s.cdp);
  for (let f = 0; f < count; f++) {
    const painted = await paintCount(s.page);
    const keys = idle ? ['x'] : KEYS[f % KEYS.length]!;
    for (const key of keys) await s.page.keyboard.down(key as KeyInput);
    for (const key of [...keys].reverse()) await s.page.keyboard.up(key as KeyInput);
    await s.page.evaluate(idle ? `window.__paints.length === ${painted}` : `window.__waitPaints(${painted})`);
  }
  if (idle) return ((await taskSeconds(s.cdp)) - before) * 1000 / count;
  const perFrame = ((await taskSeconds(s.cdp)) - before) * 1000 / count;
  const paints = await readPaints(s.page);
  s.paintMs.push(...paints.slice(-count).map((p) => p.ms));
  return perFrame;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureTimelineFrame(scale: BenchScale): Promise<BenchRow[]> {
  const { small, large, rounds, frames: perRound } = SCALES[scale];
  const captures = new Map([small, large].map((n) => [n, recordedCapture(n)]));
  const [shellDir, chromium] = await Promise.all([buildShell(), launchChromium(null)]);
  const { server, origin } = await serve(shellDir, captures);
  try {
    const base = await open(chromium.browser, origin, small);
    const big = await open(chromium.browser, origin, large);
    const ratios: number[] = [];
    // Round -1 warms the JIT and the canvas; then the sizes take turns going first.
    for (let round = -1; round < rounds; round++) {
      const order = round % 2 === 0 ? [base, big] : [big, base];
      const net = new Map<Loaded, number>();
      for (const s of order) {
        const frame = await frames(s, perRound);
        const harness = await frames(s, perRound, true);
        if (round < 0) continue;
        s.frameMs.push(frame);
        s.harnessMs.push(harness);
        net.set(s, frame - harness);
      }
      if (round < 0) base.paintMs.length = big.paintMs.length = 0;
      else ratios.push(net.get(big)! / net.get(base)!);
    }
    const f = (x: number) => x.toFixed(2);
    const net = (s: Loaded) => f(median(s.frameMs.map((ms, i) => ms - s.harnessMs[i]!)));
    const [n, k] = [large.toLocaleString('en'), small.toLocaleString('en')];
    return [row({
      name: 'timeline-frame',
      value: median(ratios),
      target: 2,
      better: 'lower',
      unit: 'x',
      baseline: `the same frame at ${k} events`,
      detail: `inline shell 1400x900, keyboard pan/zoom, renderer main-thread ms per frame net of the harness (median of ${rounds} rounds x ${perRound} frames): ` +
        `${n} events ${net(big)}, ${k} events ${net(base)} (gross ${f(median(big.frameMs))} / ${f(median(base.frameMs))}); ` +
        `canvas paint alone ${f(median(big.paintMs))} / ${f(median(base.paintMs))} ms; ${n} events load in ${(big.loadMs / 1000).toFixed(1)} s with "Events kept" at ${MAX_EVENTS_SETTING.toLocaleString('en')}`,
    })];
  } finally {
    await chromium.close();
    server.close();
  }
}

await runIfMain(import.meta.url, measureTimelineFrame);
