import { createServer, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../demo/server/listen.js';
import { MAX_STREAM_RECORD_BYTES } from '../../src/proxy/caps.js';
import { startProxy, type RunningProxy } from '../../src/proxy/server.js';
import { parseTargets, type Target } from '../../src/proxy/targets.js';

// Servers that no real MCP server is on demand: invalid SSE, a 10 MB event, a line that never
// ends, a body that breaks off with a reset. Each is proxied byte for byte, counted where a cap
// applies, and the proxy goes on serving.

const MB = 1024 * 1024;
/** More than the per-stream recording cap, so the never-ending line outgrows it. */
const ENDLESS_BYTES = MAX_STREAM_RECORD_BYTES + 6 * MB;
const INVALID = Buffer.concat([Buffer.from('\xff\xfe\x00garbage\r\ndata: {not json\r\r\nid: 1\nevent\n\n: comment only\ndata: {"jsonrpc":"2.0","id":'), Buffer.from([0xe2, 0x82])]);

let target: Listening;
let proxy: RunningProxy;
const closedByClient: string[] = [];

function sse(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'bad-input' });
}

/** Writes `total` bytes of `x` in 1 MB pieces, waiting for drain, then calls `done`. */
function writeLine(res: ServerResponse, total: number, done: () => void) {
  const piece = Buffer.alloc(MB, 'x');
  let sent = 0;
  const more = () => {
    while (sent < total) {
      sent += MB;
      if (!res.write(piece)) return void res.once('drain', more);
    }
    done();
  };
  more();
}

beforeAll(async () => {
  target = await listen(createServer((req, res) => {
    if (req.url === '/invalid') return sse(res), res.end(INVALID);
    if (req.url === '/big') return sse(res), res.end(`id: big\ndata: "${'x'.repeat(10 * MB)}"\n\n`);
    // Never a line end; then the connection is reset mid-body.
    if (req.url === '/endless') return sse(res), writeLine(res, ENDLESS_BYTES, () => res.socket!.resetAndDestroy());
    if (req.url === '/hang') {
      sse(res);
      res.write('id: 1\ndata: {}\n\n');
      res.on('close', () => closedByClient.push(req.url!));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
  }));
  proxy = await startProxy({ targets: parseTargets([new URL('/', target.url).href]) as Target[], listen: { host: '127.0.0.1', port: 0 } });
});
afterAll(async () => {
  await proxy.stop(0);
  await proxy.analysis.close();
  await target.close();
});

/** Reads a body through the proxy: its bytes, and how it ended. */
async function read(path: string): Promise<{ bytes: Buffer; error?: string }> {
  const response = await fetch(new URL(path, proxy.origin));
  const parts: Buffer[] = [];
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(parts) };
      parts.push(Buffer.from(value));
    }
  } catch (error) {
    return { bytes: Buffer.concat(parts), error: String((error as Error).cause ?? error) };
  }
}

const stillServes = async () => expect((await fetch(new URL('/ok', proxy.origin), { method: 'POST', body: '{}' })).status).toBe(200);

describe('the proxy under bad input', () => {
  it('passes invalid SSE through byte for byte', async () => {
    expect((await read('/invalid')).bytes.equals(INVALID)).toBe(true);
    await stillServes();
  });

  it('passes a 10 MB event through whole, and the analysis reads it', async () => {
    const { bytes, error } = await read('/big');
    expect(error).toBeUndefined();
    expect(bytes.length).toBe(10 * MB + 'id: big\ndata: ""\n\n'.length);
    await stillServes();
    const big = proxy.recording.exchanges().find((e) => e.url.endsWith('/big'))!;
    expect(big.end.state).toBe('complete');
    const streams = (await proxy.analysis.report()).sessions.flatMap((s) => s.streams);
    expect(streams.find((s) => s.index === big.entry)!.events).toBe(1);
  });

  it('passes a never-ending line on until the target resets, recording up to its cap and counting the rest', async () => {
    const before = { ...proxy.counters };
    const { bytes, error } = await read('/endless');
    // The client gets the reset too (most bytes arrive before it; a reset may cost the last few).
    expect(error).toMatch(/ECONNRESET|terminated|other side closed|SocketError/i);
    expect(bytes.length).toBeGreaterThan(MAX_STREAM_RECORD_BYTES);
    expect(proxy.counters.streamsClipped).toBe(before.streamsClipped + 1);
    expect(proxy.counters.bytesNotRecorded).toBeGreaterThan(before.bytesNotRecorded);
    expect(proxy.counters.targetResets).toBe(before.targetResets + 1);
    const endless = proxy.recording.exchanges().find((e) => e.url.endsWith('/endless'))!;
    // Node may turn a reset with unsent data into a plain close: the proxy records what it saw.
    expect(endless.end.state).toBe('reset');
    expect(endless.end.error).toMatch(/^the target (reset|closed) the connection/);
    // Clipped, not absent: the kept start is analysed, and what came after it is unknown.
    expect(endless.end.bodyAbsent).toBeUndefined();
    expect(endless.end.bodyClipped).toMatch(/recorded only the first \d+ bytes/);
    const report = await proxy.analysis.report();
    const stream = report.sessions.flatMap((s) => s.streams).find((s) => s.index === endless.entry)!;
    expect(stream).toMatchObject({ body: 'partial', end: 'reset' });
    const findings = report.sessions.flatMap((s) => s.findings).filter((f) => f.stream === endless.entry);
    expect(findings.map((f) => f.code)).toEqual(['body-not-captured']);
    expect(findings[0]!.message).toMatch(/captured only in part: the proxy recorded only the first \d+ bytes/);
    await stillServes();
  });

  it('tells the target when the client gives up mid-stream', async () => {
    const before = proxy.counters.clientResets;
    const abort = new AbortController();
    const response = await fetch(new URL('/hang', proxy.origin), { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read(); // the first event has arrived through the proxy
    const closed = new Promise<void>((resolve) => {
      const poll = proxy.recording.subscribe((event) => event.kind === 'end' && event.rec.exchange.url.endsWith('/hang') && (poll(), resolve()));
    });
    abort.abort();
    await closed;
    const hang = proxy.recording.exchanges().find((e) => e.url.endsWith('/hang'))!;
    expect(hang.end.state === 'cancelled' || hang.end.state === 'reset').toBe(true);
    expect(proxy.counters.clientResets).toBe(before + 1);
    await stillServes();
    expect(closedByClient).toEqual(['/hang']);
  });

  it('never aims at a host that is not the target: absolute-form and `//host` request targets', async () => {
    const hits: string[] = [];
    const other = await listen(createServer((req, res) => (hits.push(req.url ?? ''), res.end('other'))));
    try {
      const otherHost = new URL(other.url).host;
      const raw = (line: string) => new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(proxy.origin).port), '127.0.0.1', () => socket.write(`${line}\r\nhost: ${otherHost}\r\nconnection: close\r\n\r\n`));
        let reply = '';
        socket.setEncoding('utf8').on('data', (d: string) => (reply += d)).on('end', () => resolve(reply)).on('error', reject);
      });
      const before = proxy.counters.badClientRequests;
      expect(await raw(`GET ${other.url} HTTP/1.1`)).toMatch(/^HTTP\/1\.1 400/);
      expect(proxy.counters.badClientRequests).toBe(before + 1);
      expect(await raw(`GET //${otherHost}/x HTTP/1.1`)).toMatch(/^HTTP\/1\.1 200[\s\S]*"result"/);
      expect(hits).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('the analysis survives all of it', async () => {
    const report = await proxy.analysis.report({ final: true });
    expect(report.summary.streams + (report.summary.ignoredExchanges ?? 0)).toBe(proxy.recording.exchanges().length);
    expect(report.sessions.flatMap((s) => s.findings.map((f) => f.code))).toContain('malformed-event');
  });
});
