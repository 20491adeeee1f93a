/**
 * page-tap and dormant-tap: what the extension's page tap costs the page, with no DevTools panel
 * open, as ratios to the same browser without the extension (targets >= 0.95 and >= 0.98).
 *
 * - page-tap: a page on 127.0.0.1 reads a 50 MB MCP event stream (`mcp-session-id`) through
 *   fetch; MB/s with the extension / without.
 * - dormant-tap: the page makes 10,000 small non-MCP `fetch` calls (a JSON endpoint, 8 at a time)
 *   with the extension and 10,000 without, a share of them each round; calls/s with / without.
 *
 * One Chromium: each round installs the extension over CDP, measures, uninstalls it and measures
 * again (or the other way round: the order alternates), so both sides share the browser process,
 * build and machine state. The value is the median of the per-round ratios.
 *
 *   npx tsx bench/page-tap.ts [--smoke]      (npm run bench:tap)
 */
import type { Browser, Page } from 'puppeteer-core';
import { launchChromium } from '../test/e2e/support/chromium';
import { buildExtension } from '../test/e2e/support/extension-build';
import { runIfMain } from './cli-browser';
import { row, type BenchRow, type BenchScale } from './row';
import { SESSION, startBenchServer } from './sse-server-browser';

const SCALES = {
  smoke: { bytes: 2 * 1024 * 1024, calls: 300, rounds: 1 },
  full: { bytes: 50 * 1024 * 1024, calls: 10_000, rounds: 5 },
} as const;
/** Calls before each measurement, to open the connections and warm the JIT. */
const WARM_CALLS = 100;
/** Calls in flight at once (Chromium opens at most 6 connections to one host anyway). */
const CONCURRENCY = 8;

/** Reads `/big` in the page as an MCP stream; returns MB/s. */
async function readBig(page: Page): Promise<number> {
  const result = await page.evaluate(async (session: string) => {
    const t0 = performance.now();
    const response = await fetch('/big', { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
    const reader = response.body!.getReader();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    return { bytes, ms: performance.now() - t0 };
  }, SESSION);
  return result.bytes / 1024 / 1024 / (result.ms / 1000);
}

/** `calls` small JSON fetches, `CONCURRENCY` at a time; returns calls/s. */
async function manyCalls(page: Page, calls: number): Promise<number> {
  // Text, not a function: tsx would wrap the inner function in a `__name` helper the page lacks.
  const ms = (await page.evaluate(`(async () => {
    let next = 0;
    const lane = async () => {
      while (next < ${calls}) {
        const response = await fetch('/json?i=' + next++);
        if (!(await response.json()).ok) throw new Error('bad answer');
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: ${CONCURRENCY} }, lane));
    return performance.now() - t0;
  })()`)) as number;
  return calls / (ms / 1000);
}

interface Side {
  mbps: number[];
  callsPerSecond: number[];
}

async function measureSide(browser: Browser, dir: string, origin: string, withTap: boolean, calls: number, into: Side): Promise<void> {
  const id = withTap ? await browser.installExtension(dir) : null;
  // A freshly installed extension starts its worker; measure once it is up, not during it.
  if (id) await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${id}/`));
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    // Warm-up: connections, JIT, and (with the tap) the one-time hello that wakes the worker.
    await readBig(page);
    await manyCalls(page, WARM_CALLS);
    into.mbps.push(await readBig(page));
    into.callsPerSecond.push(await manyCalls(page, calls));
  } finally {
    await page.close();
    if (id) await browser.uninstallExtension(id);
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measurePageTap(scale: BenchScale): Promise<BenchRow[]> {
  const { bytes, calls, rounds } = SCALES[scale];
  const dir = await buildExtension('chrome');
  const server = await startBenchServer(bytes);
  // Extensions are installed later over CDP: start with none, allowed.
  const chromium = await launchChromium(null, { allowExtensions: true });
  const plain: Side = { mbps: [], callsPerSecond: [] };
  const tap: Side = { mbps: [], callsPerSecond: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const withTap of round % 2 === 0 ? [false, true] : [true, false]) {
        await measureSide(chromium.browser, dir, server.origin, withTap, Math.round(calls / rounds), withTap ? tap : plain);
      }
    }
  } finally {
    await chromium.close();
    await server.close();
  }
  const paired = (mine: number[], base: number[]) => median(mine.map((v, i) => v / base[i]!));
  const f = (x: number) => x.toFixed(0);
  const how = `median of ${rounds} paired rounds`;
  return [
    row({
      name: 'page-tap',
      value: paired(tap.mbps, plain.mbps),
      target: 0.95,
      better: 'higher',
      unit: 'x',
      baseline: 'the same Chromium without the extension',
      detail: `${(server.bytes / 1024 / 1024).toFixed(0)} MB MCP SSE read by fetch, no panel open, ${how}: with ${f(median(tap.mbps))} MB/s, without ${f(median(plain.mbps))} MB/s`,
    }),
    row({
      name: 'dormant-tap',
      value: paired(tap.callsPerSecond, plain.callsPerSecond),
      target: 0.98,
      better: 'higher',
      unit: 'x',
      baseline: 'the same Chromium without the extension',
      detail: `${calls.toLocaleString('en')} non-MCP JSON fetches per side, ${CONCURRENCY} in flight, ${how}: with ${f(median(tap.callsPerSecond))} calls/s, without ${f(median(plain.callsPerSecond))} calls/s`,
    }),
  ];
}

await runIfMain(import.meta.url, measurePageTap);
