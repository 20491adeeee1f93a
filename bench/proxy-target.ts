/**
 * The SSE server the proxy benchmarks read, on 127.0.0.1: MCP-shaped events (a session header,
 * JSON-RPC notifications with an `id:` and an `app_seq`), so the proxy's live analysis does its
 * real work on every event.
 *
 * - `/bulk?bytes=N`: events as fast as the socket takes them, N bytes in all, then the end.
 * - `/paced?events=N&rate=R`: N events at R per second, each stamped (`"w"`) with
 *   `performance.now()` when written: this process's clock, which the reader shares.
 * - `/hold?bytes=N`: N bytes of events, then the stream stays open until the server closes.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BenchTarget {
  origin: string;
  close(): Promise<void>;
}

/** One event of about `size` bytes. */
function event(seq: number, size: number, stamp = ''): string {
  const head = `id: ${seq}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","_meta":{"app_seq":${seq}}${stamp},"data":"`;
  const tail = '"}}\n\n';
  return head + 'x'.repeat(Math.max(0, size - head.length - tail.length)) + tail;
}

/** Events per precomputed block: the server's own cost must stay far below the proxy's. */
const BLOCK_EVENTS = 256;
/** Ids and app_seq values have ten digits from here on, so a block is renumbered in place. */
const FIRST_SEQ = 1_000_000_000;

/**
 * Writes events of `size` until `bytes` are out, honouring backpressure; then `done`. One block
 * of events is built once; each write copies it and renumbers its ids and app_seq values in
 * place (fixed width), so the baseline (the direct read) measures the sockets, not this server.
 */
function writeBulk(res: ServerResponse, bytes: number, size: number, done: () => void): void {
  const texts = Array.from({ length: BLOCK_EVENTS }, (_, i) => event(FIRST_SEQ + i, size));
  const block = Buffer.from(texts.join(''));
  const digits: number[] = [];
  let at = 0;
  for (const text of texts) {
    digits.push(at + text.indexOf('id: ') + 4, at + text.indexOf('"app_seq":') + 10);
    at += text.length;
  }
  let sent = 0;
  let seq = FIRST_SEQ;
  const more = () => {
    while (sent < bytes) {
      const out = Buffer.from(block);
      for (let i = 0; i < BLOCK_EVENTS; i++) {
        const text = String(seq + i);
        out.write(text, digits[2 * i]!, 'latin1');
        out.write(text, digits[2 * i + 1]!, 'latin1');
      }
      seq += BLOCK_EVENTS;
      const piece = out.subarray(0, Math.min(out.length, bytes - sent));
      sent += piece.length;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    done();
  };
  more();
}

export async function startBenchTarget(): Promise<BenchTarget> {
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const n = (name: string) => Number(url.searchParams.get(name) ?? 0);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': `bench-${url.pathname}-${Math.random().toString(36).slice(2)}` });
    res.flushHeaders();
    if (url.pathname === '/bulk') return writeBulk(res, n('bytes'), 1024, () => res.end());
    if (url.pathname === '/hold') {
      held.add(res);
      res.on('close', () => held.delete(res));
      return writeBulk(res, n('bytes'), 1024, () => undefined);
    }
    // Paced by the clock: every tick writes the events due by then, each stamped as it is written.
    const total = n('events');
    const rate = n('rate');
    const start = performance.now();
    let seq = 0;
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
      while (seq < due) res.write(event(++seq, 256, `,"w":${performance.now()}`));
      if (seq >= total) res.end();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
