/**
 * The 127.0.0.1 server of the browser benchmarks (page-tap, dormant-tap, live-latency):
 *
 * - `/`              a blank page to run the page side in;
 * - `/big`           a ~1 KB-per-event MCP-shaped SSE body of `bigBytes`, written in 64 KB slices;
 * - `/json?i=N`      a small JSON answer, the non-MCP call of the dormant benchmark;
 * - `/paced?rate=R&events=N`  N MCP notifications at R per second, with `mcp-session-id`
 *   (ids 1..N and app_seq = id), written by the reliability tests' `writeSteady`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { steadyEvent, writeSteady } from '../test/e2e/support/steady-stream';

export const SESSION = 'bench-session';

/** ~1 KB JSON-RPC notifications, as SSE, repeated to `bytes` (built once). */
function bigStream(bytes: number): Buffer {
  const pad = 'x'.repeat(900);
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i += 1) {
    const event = steadyEvent(i, pad);
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

export async function startBenchServer(bigBytes: number) {
  const body = bigStream(bigBytes);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const sse = { 'content-type': 'text/event-stream', 'cache-control': 'no-store' };
    const num = (name: string) => Number(url.searchParams.get(name));
    switch (url.pathname) {
      case '/':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench</title><p>bench</p>');
      case '/big':
        return writeAll(res.writeHead(200, sse), body);
      case '/json':
        return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(`{"ok":true,"i":${num('i') | 0}}`);
      case '/paced': {
        const rate = num('rate');
        // Under 1 ms a tick is one event or a few; at 10,000/s, 10 ms ticks of 100 events.
        return writeSteady(res.writeHead(200, { ...sse, 'mcp-session-id': SESSION }), { rate, events: num('events') }, rate > 2_000 ? 10 : 1);
      }
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: body.length,
    close: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}
