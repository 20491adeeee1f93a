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
    // Not HTTP at all, and a chunked body whose framing breaks: written on the socket itself.
    if (req.url === '/not-http') return void req.socket.end('SSH-2.0-not-http\r\n\r\n');
    if (req.url === '/bad-chunks') return void req.socket.end(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n10\r\nid: 1\ndata: {}\n\n\r\nzz\r\n`);
    if (req.url === '/until-close') return void req.socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the target closes');
    if (req.url === '/echo-length') {
      let size = 0;
      req.on('data', (d: Buffer) => (size += d.length));
      return void req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${size} ${req.headers['transfer-encoding'] ?? 'sized'}`));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
  }));
  proxy = await startProxy({ targets: parseTargets([new URL('/', target.url).href]) as Target[], listen: { host: '127.0.0.1', port: 0 } });
});
afterAll(async () => {
  await proxy.stop(0);
  await proxy.close();
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

  it('answers 502 for a target that does not speak HTTP, and counts it', async () => {
    const before = proxy.counters.targetErrors;
    const response = await fetch(new URL('/not-http', proxy.origin));
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(/the target http:\/\/127\.0\.0\.1:\d+ did not answer \(the target's answer is not an HTTP\/1.1 status line: "SSH-2.0-not-http"\)/);
    expect(proxy.counters.targetErrors).toBe(before + 1);
    await stillServes();
  });

  it('breaks the body off for the client where a chunked body breaks its framing, after the bytes before it', async () => {
    const before = proxy.counters.targetResets;
    const { bytes, error } = await read('/bad-chunks');
    expect(bytes.toString()).toBe('id: 1\ndata: {}\n\n');
    expect(error).toBeDefined();
    expect(proxy.counters.targetResets).toBe(before + 1);
    const broken = proxy.recording.exchanges().find((e) => e.url.endsWith('/bad-chunks'))!;
    expect(broken.end).toMatchObject({ state: 'reset', error: "the target's chunked body is invalid: a chunk size is missing" });
    await stillServes();
  });

  it('passes on a body that only the connection’s close ends, as complete', async () => {
    expect(await read('/until-close')).toEqual({ bytes: Buffer.from('until the target closes') });
    expect(proxy.recording.exchanges().find((e) => e.url.endsWith('/until-close'))!.end.state).toBe('complete');
  });

  it('passes a request body on whole, chunked as the client sent it or with its length', async () => {
    const pieces = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i += 1) controller.enqueue(new Uint8Array(70_000).fill(0x61));
        controller.close();
      },
    });
    const streamed = await fetch(new URL('/echo-length', proxy.origin), { method: 'POST', body: pieces, duplex: 'half' } as RequestInit);
    expect(await streamed.text()).toBe('210000 chunked');
    const sized = await fetch(new URL('/echo-length', proxy.origin), { method: 'POST', body: 'x'.repeat(1000) });
    expect(await sized.text()).toBe('1000 sized');
  });

  it('the analysis survives all of it', async () => {
    const report = await proxy.analysis.report({ final: true });
    expect(report.summary.streams + (report.summary.ignoredExchanges ?? 0)).toBe(proxy.recording.exchanges().length);
    expect(report.sessions.flatMap((s) => s.findings.map((f) => f.code))).toContain('malformed-event');
  });
});
