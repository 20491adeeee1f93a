/**
 * Page-tap benchmark (issue 3). Run: `npx tsx bench/page-tap.bench.ts` (builds dist/chrome first).
 *
 * 1. Throughput: a page on 127.0.0.1 reads a 50 MB MCP event stream through fetch, in one
 *    Chromium run, alternately without the extension and with it (installed and uninstalled
 *    over CDP, so it is the same browser process and build). Prints the ratio of the medians;
 *    the target is >= 0.9. The same is measured for a non-MCP stream (the dormant path).
 * 2. Burst: 10,000 events/s for 5 s on an MCP stream with the DevTools panel open. Prints how
 *    many events reached the panel's analysis, the panel's drop count, and the uncounted rest.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { launchChromium, openPanel } from '../test/e2e/support/chromium';
import { buildExtension } from '../test/e2e/support/extension-build';
import { waitForPanel } from '../test/e2e/support/panel-queries';

const STREAM_BYTES = 50 * 1024 * 1024;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const BURST_RATE = 10_000;
const BURST_SECONDS = 5;
const SESSION = 'bench-session';

/** ~1 KB JSON-RPC notifications, as SSE, repeated to 50 MB (built once, written in 64 KB slices). */
function bigStream(): Buffer {
  const pad = 'x'.repeat(900);
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < STREAM_BYTES; i += 1) {
    const event = `id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${pad}","_meta":{"app_seq":${i}}}}\n\n`;
    parts.push(event);
    size += event.length;
  }
  return Buffer.from(parts.join(''));
}

function writeAll(res: ServerResponse, body: Buffer): void {
  let at = 0;
  const pump = () => {
    while (at < body.length) {
      const ok = res.write(body.subarray(at, (at += 64 * 1024)));
      if (!ok) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

/** 10,000 events/s: 100 events every 10 ms, driven by the clock so a late tick catches up. */
function burst(res: ServerResponse): void {
  const total = BURST_RATE * BURST_SECONDS;
  const start = Date.now();
  let sent = 0;
  const tick = () => {
    const due = Math.min(total, Math.floor(((Date.now() - start) / 1000) * BURST_RATE));
    let chunk = '';
    for (; sent < due; sent += 1) chunk += `id: ${sent + 1}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":${sent + 1},"_meta":{"app_seq":${sent + 1}}}}\n\n`;
    if (chunk) res.write(chunk);
    if (sent >= total) return void res.end();
    setTimeout(tick, 10);
  };
  tick();
}

async function startServer() {
  const body = bigStream();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const sse = { 'content-type': 'text/event-stream', 'cache-control': 'no-store' };
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title><p>bench</p>');
    if (path === '/big') return writeAll(res.writeHead(200, sse), body);
    if (path === '/burst') return burst(res.writeHead(200, { ...sse, 'mcp-session-id': SESSION }));
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bytes: body.length };
}

/**
 * Reads `/big` in the page; returns MB/s. `mcp` adds the header that makes it MCP traffic.
 * `tee` is the control: the page itself tees the body and drains the second branch, which is the
 * least any tee-based tap can cost.
 */
async function readBig(page: Page, mcp: boolean, tee = false): Promise<number> {
  const result = await page.evaluate(async (withHeader: boolean, session: string, teeIt: boolean) => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (withHeader) headers['mcp-session-id'] = session;
    const t0 = performance.now();
    const response = await fetch('/big', { headers });
    let body = response.body!;
    if (teeIt) {
      const [mine, other] = body.tee();
      body = mine;
      void other.pipeTo(new WritableStream());
    }
    const reader = body.getReader();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    return { bytes, ms: performance.now() - t0 };
  }, mcp, SESSION, tee);
  return result.bytes / 1024 / 1024 / (result.ms / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** Interference from other processes only ever slows a read, so the best run is the cleanest. */
const best = (xs: number[]) => Math.max(...xs);

async function throughput(browser: Browser, dir: string, origin: string) {
  const runs = { plainMcp: [] as number[], tapMcp: [] as number[], plainOther: [] as number[], tapOther: [] as number[], teeControl: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const withTap of [false, true]) {
      const id = withTap ? await browser.installExtension(dir) : null;
      // A freshly installed extension starts its worker; measure once it is up, not during it.
      if (id) await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith(`chrome-extension://${id}/`));
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      // Warm-up: connection, JIT, server caches, and (with the tap) the one-time tap-hello that
      // wakes the background worker; the measured reads are the steady state.
      await readBig(page, true);
      await readBig(page, false);
      // Alternate which kind goes first, so neither always reads a cold pipe.
      for (const mcp of round % 2 === 0 ? [true, false] : [false, true]) {
        const mbps = await readBig(page, mcp);
        if (mcp) (withTap ? runs.tapMcp : runs.plainMcp).push(mbps);
        else (withTap ? runs.tapOther : runs.plainOther).push(mbps);
      }
      if (!withTap) runs.teeControl.push(await readBig(page, false, true));
      await page.close();
      if (id) await browser.uninstallExtension(id);
    }
  }
  return runs;
}

async function burstToPanel(dir: string, origin: string) {
  const chromium = await launchChromium(dir);
  try {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${origin}/`);
    const total = BURST_RATE * BURST_SECONDS;
    const pageEvents = await page.evaluate(async (session: string) => {
      const response = await fetch('/burst', { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
      const text = await response.text();
      return text.split('\n\n').filter((block) => block.startsWith('id:')).length;
    }, SESSION);
    const state = await waitForPanel(panel, `(s) => s.streams.some((x) => x.end === 'complete' && x.events >= ${total}) || s.dropped > 0 && s.streams.some((x) => x.end !== 'open')`, 120_000);
    const received = state.streams.reduce((sum, x) => sum + x.events, 0);
    return { total, pageEvents, received, dropped: state.dropped, uncounted: total - received - (received === total ? 0 : state.dropped) };
  } finally {
    await chromium.close();
  }
}

const dir = await buildExtension('chrome');
const { server, origin, bytes } = await startServer();
try {
  // Extensions may be installed later over CDP: start with none, allowed.
  const chromium = await launchChromium(null, { allowExtensions: true });
  let runs;
  try {
    runs = await throughput(chromium.browser, dir, origin);
  } finally {
    await chromium.close();
  }
  const ratio = median(runs.tapMcp) / median(runs.plainMcp);
  const dormant = median(runs.tapOther) / median(runs.plainOther);
  console.log(`stream: ${(bytes / 1024 / 1024).toFixed(1)} MB, ${ROUNDS} rounds, medians (best) in MB/s`);
  const line = (xs: number[]) => `${median(xs).toFixed(0)} (${best(xs).toFixed(0)})`;
  // Each round reads with and without the tap back to back; the median of those paired ratios
  // cancels most of the slow drifts of a shared machine.
  const paired = median(runs.tapMcp.map((t, i) => t / runs.plainMcp[i]!));
  console.log(`MCP stream     without tap ${line(runs.plainMcp)}  with tap ${line(runs.tapMcp)}  ratio ${ratio.toFixed(3)} (paired ${paired.toFixed(3)}, best ${(best(runs.tapMcp) / best(runs.plainMcp)).toFixed(3)}) (target >= 0.9)`);
  if (process.env.VERBOSE) console.log(JSON.stringify(runs, (_k, v) => (typeof v === 'number' ? Math.round(v) : v)));
  console.log(`control: the page tees the body itself, no extension: ${line(runs.teeControl)} (ratio ${(median(runs.teeControl) / median(runs.plainOther)).toFixed(3)})`);
  console.log(`non-MCP stream without tap ${line(runs.plainOther)}  with tap ${line(runs.tapOther)}  ratio ${dormant.toFixed(3)} (best ${(best(runs.tapOther) / best(runs.plainOther)).toFixed(3)})`);
  if (process.env.SKIP_BURST) process.exit(0);
  const b = await burstToPanel(dir, origin);
  console.log(`burst: ${b.total} events at ${BURST_RATE}/s; page read ${b.pageEvents}; panel analysed ${b.received}; counted drops ${b.dropped}; uncounted drops ${b.uncounted}`);
} finally {
  server.close();
}
