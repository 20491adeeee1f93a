import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page } from 'puppeteer-core';

/**
 * A 127.0.0.1 site for the reliability tests: pages that read one MCP event stream with fetch,
 * and that stream, written at a steady rate. Every event has an integer `id:` and an `app_seq`
 * (1..n), so a loss anywhere shows as a gap the analysis and the test can both see.
 */
export interface SteadySite {
  origin: string;
  close(): Promise<void>;
}

export interface StreamPlan {
  /** Events to send, numbered 1..n. */
  events: number;
  /** Events per second, paced by the clock (a late timer tick catches up). */
  rate: number;
  /** Characters of filler per event, to reach a byte budget (the caps test). */
  pad?: number;
  /** The Mcp-Session-Id the stream answers with. */
  session: string;
}

/** The events of `plan` that are due `elapsedMs` after the stream started. */
const due = (plan: Pick<StreamPlan, 'events' | 'rate'>, elapsedMs: number) => Math.min(plan.events, Math.floor((elapsedMs / 1000) * plan.rate));

/** One SSE event: a JSON-RPC notification carrying its app_seq; `pad` makes it bigger. */
export function steadyEvent(seq: number, pad = ''): string {
  return `id: ${seq}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"${pad}","_meta":{"app_seq":${seq}}}}\n\n`;
}

/**
 * Writes events 1..`events` at `rate` per second: every `tickMs` the events due by then go out as
 * one chunk, driven by the clock so a late tick catches up. The benchmarks' paced stream too.
 */
export function writeSteady(res: ServerResponse, plan: Pick<StreamPlan, 'events' | 'rate' | 'pad'>, tickMs = 10): void {
  const pad = 'x'.repeat(plan.pad ?? 0);
  const start = performance.now();
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const until = due(plan, performance.now() - start);
    let text = '';
    for (; sent < until; sent += 1) text += steadyEvent(sent + 1, pad);
    if (text) res.write(text);
    if (sent >= plan.events) return void res.end();
    timer = setTimeout(tick, tickMs);
  };
  res.on('close', () => clearTimeout(timer));
  tick();
}

function stream(res: ServerResponse, plan: StreamPlan): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'mcp-session-id': plan.session });
  writeSteady(res, plan);
}

/**
 * The page: `window.readSteady(plan)` POSTs a JSON-RPC request (which is what makes it MCP
 * traffic for the tap) and reads the event stream with fetch, counting whole events into
 * #count and writing "done N" into #status at the end. A link to the site's other page lets a
 * test navigate the way a user does.
 */
const PAGE = (title: string) => `<!doctype html><meta charset="utf-8"><title>${title}</title>
<p id="status">idle</p><p id="count">0</p><a id="next" href="/other">other page</a>
<script>
window.readSteady = async (plan) => {
  const status = document.getElementById('status');
  const count = document.getElementById('count');
  status.textContent = 'reading';
  const query = new URLSearchParams({ n: plan.events, rate: plan.rate, pad: plan.pad || 0, session: plan.session });
  const response = await fetch('/stream?' + query, { method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'steady', arguments: {} } }) });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let events = 0, tail = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const parts = (tail + value).split('\\n\\n');
    tail = parts.pop();
    events += parts.length;
    count.textContent = String(events);
  }
  status.textContent = 'done ' + events;
};
</script>`;

export async function startSteadySite(): Promise<SteadySite> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/' || url.pathname === '/other') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(url.pathname));
    if (url.pathname === '/stream') {
      const q = url.searchParams;
      req.resume(); // the request body (the JSON-RPC call) is not needed
      return stream(res, { events: Number(q.get('n')), rate: Number(q.get('rate')), pad: Number(q.get('pad')), session: q.get('session') ?? 'steady' });
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/** Starts reading `plan` in the page; resolves once the read has begun, not when it ends. */
export async function readSteady(page: Page, plan: StreamPlan): Promise<void> {
  await page.evaluate((p: StreamPlan) => void (window as unknown as { readSteady(p: StreamPlan): Promise<void> }).readSteady(p), plan);
}

/** Waits until the page has read the whole stream; returns how many events it counted. */
export async function pageDone(page: Page, timeout = 60_000): Promise<number> {
  const handle = await page.waitForFunction(() => {
    const text = document.getElementById('status')?.textContent ?? '';
    return text.startsWith('done ') ? Number(text.slice(5)) : null;
  }, { polling: 100, timeout });
  return (await handle.jsonValue()) as number;
}

/** What the panel shows of one session's streams: events per stream and the drop count. */
export interface PanelCounts {
  /** Events summed over the stream rows of `session` (the selected session's streams). */
  events: number;
  dropped: number;
}

// Evaluated in the panel frame; cheaper than readPanel (no per-row queries) for polling loops.
const COUNTS = `(() => {
  const rows = [...document.querySelectorAll('[data-testid="stream-row"]')];
  const dropped = document.querySelector('[data-testid="dropped-count"]');
  return { events: rows.reduce((n, r) => n + Number(r.dataset.events || 0), 0), dropped: dropped ? Number(dropped.textContent) : NaN };
})()`;

export async function panelCounts(panel: Frame): Promise<PanelCounts> {
  return (await panel.evaluate(COUNTS)) as PanelCounts;
}

/** Waits until `predicate` (source of `(counts) => boolean`) holds in the panel, polled every 100 ms. */
export async function waitForCounts(panel: Frame, predicate: string, timeout = 60_000): Promise<PanelCounts> {
  const handle = await panel.waitForFunction(`(() => { const c = ${COUNTS}; return (${predicate})(c) ? c : null; })()`, { polling: 100, timeout });
  return (await handle.jsonValue()) as PanelCounts;
}
