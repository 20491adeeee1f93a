import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { StreamEnd } from '../core/index';
import { MAX_REQUEST_RECORD_BYTES, type ProxyCounters } from './caps';
import { now } from './clock';
import { createEndpointRewriter, endpointMapper, type EndpointRewriter } from './endpoint-rewrite';
import { asHeaders, endToEnd, pairs, type RawHeaders } from './headers';
import { createReadBuffers, type ReadBuffers } from './read-buffers';
import type { Recorded, Recording } from './recording';
import { createResponseReader, type ResponseHead, type ResponseReader } from './response-reader';
import { route, type Target } from './targets';

export interface ForwardContext {
  targets: readonly Target[];
  recording: Recording;
  counters: ProxyCounters;
  /** The proxy's own origin, for requests that name no `Host`. */
  origin: string;
}

/**
 * Request headers not passed on: the proxy names the target's host itself, and asks for an
 * identity body, because a compressed stream could not be read live (the client still gets
 * exactly the bytes the target sent). `Expect` was the proxy's to answer (Node's server sends the
 * 100 Continue).
 */
const NOT_FORWARDED = new Set(['host', 'accept-encoding', 'expect']);

/**
 * The proxy's request handler: routes by path prefix, streams the request to the target and the
 * response back read by read (each read recorded with its arrival time), and passes a reset on
 * either side to the other side as one. The target's side is spoken over a plain socket (see
 * response-reader.ts for why), the client's through Node's HTTP server.
 */
export function createForwarder(ctx: ForwardContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = req.url ?? '/';
    // Only origin-form request targets (`/path?query`): an absolute URL or `*` would let a client
    // aim the proxy at a host that is not a target.
    if (!path.startsWith('/')) {
      ctx.counters.badClientRequests += 1;
      res.writeHead(400, { 'content-type': 'text/plain' }).end('mcp-stream-lens proxy: only /path requests are proxied\n');
      return;
    }
    const routed = route(ctx.targets, path);
    if (!routed) {
      ctx.counters.unrouted += 1;
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`mcp-stream-lens proxy: no --target is served under ${path.split('?')[0]}\n`);
      return;
    }
    const { target, upstreamPath } = routed;
    const method = req.method ?? 'GET';
    const origin = req.headers.host ? `http://${req.headers.host}` : ctx.origin;
    const clientHeaders = pairs(req.rawHeaders);
    const chunked = req.headers['transfer-encoding'] !== undefined;
    // The caller answers 400 for a request that cannot be sent on as it is.
    const head = requestHead(method, upstreamPath, clientHeaders, target.url.host, chunked);
    // Joined, not resolved: `//host/x` is a path on the target, never another host.
    const upstreamUrl = `${target.url.origin}${upstreamPath}`;
    const rec = ctx.recording.start({ method, url: `${origin}${path}`, headers: asHeaders(clientHeaders), startTime: startTime() });
    const clientSocket = req.socket;
    let ended = false;
    const finish = (end: StreamEnd) => {
      if (ended) return;
      ended = true;
      if (rec) ctx.recording.end(rec, end);
    };

    const buffers = createReadBuffers();
    const response = relay(res, rec, ctx, finish, method === 'GET' ? endpointMapper(target, upstreamUrl, origin) : undefined, createResponseReader({ method }), buffers, target.url.origin);
    // Its own connection per exchange, so that one stream's reset never disturbs another.
    const upstream: Socket = connect({
      host: target.url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(target.url.port || 80),
      onread: { buffer: buffers.next, callback: (n: number, buf: Uint8Array): boolean => response.read(n, buf as Buffer, upstream) },
    });
    upstream.setNoDelay(true);
    upstream.write(head, 'latin1');
    recordRequestBody(req, upstream, chunked, rec, ctx);
    upstream.on('end', () => response.eof(upstream));
    upstream.on('error', (error: NodeJS.ErrnoException) => response.broke(error, upstream));
    upstream.on('close', () => buffers.close());
    res.on('close', () => {
      if (res.writableFinished || ended || ctx.recording.frozen) return upstream.destroy();
      // The client went away mid-exchange: the target is told the same way (a reset for a reset).
      ctx.counters.clientResets += 1;
      const reset = isReset(clientSocket);
      finish({ state: reset ? 'reset' : 'cancelled', time: now(), error: reset ? 'the client reset the connection' : 'the client closed the connection before the body ended' });
      if (reset && !upstream.destroyed) upstream.resetAndDestroy();
      else upstream.destroy();
    });
  };
}

/**
 * The request as the target gets it: the client's end-to-end headers (minus {@link NOT_FORWARDED}),
 * the target's `Host`, and a connection of its own that closes after the response. A body the
 * client sent chunked is sent on chunked; one with a `Content-Length` keeps it.
 */
function requestHead(method: string, path: string, headers: RawHeaders, host: string, chunked: boolean): string {
  // What Node's own client refuses to send: a path it would have to escape.
  if (/[^\u0021-\u00ff]/.test(path)) throw new Error('the request path holds characters that cannot be sent on');
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${host}`];
  for (const [name, value] of endToEnd(headers)) if (!NOT_FORWARDED.has(name.toLowerCase())) lines.push(`${name}: ${value}`);
  if (chunked) lines.push('transfer-encoding: chunked');
  lines.push('connection: close', '', '');
  return lines.join('\r\n');
}

/** Streams the request body to the target (unbuffered, with backpressure) while recording up to its cap. */
function recordRequestBody(req: IncomingMessage, upstream: Socket, chunked: boolean, rec: Recorded | undefined, ctx: ForwardContext): void {
  const parts: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_REQUEST_RECORD_BYTES) parts.push(chunk);
    if (chunked) upstream.write(`${chunk.length.toString(16)}\r\n`);
    const more = upstream.write(chunk);
    if (chunked) upstream.write('\r\n');
    if (!more) {
      req.pause();
      upstream.once('drain', () => req.resume());
    }
  });
  req.on('end', () => {
    if (chunked) upstream.write('0\r\n\r\n');
    if (!rec) return;
    if (size > MAX_REQUEST_RECORD_BYTES) ctx.counters.requestBodiesNotRecorded += 1;
    ctx.recording.requestDone(rec, size === 0 || size > MAX_REQUEST_RECORD_BYTES ? undefined : Buffer.concat(parts).toString('utf8'));
  });
  req.on('error', () => upstream.destroy());
}

/** The response half of an exchange: what the target's connection brings, passed on as it comes. */
interface Relay {
  /** One read of the target's connection (`onread`); false pauses reading until the client drains. */
  read(n: number, buf: Buffer, upstream: Socket): boolean;
  /** The target closed its side. */
  eof(upstream: Socket): void;
  /** The target's connection failed (refused, reset). */
  broke(error: NodeJS.ErrnoException, upstream: Socket): void;
}

function relay(
  res: ServerResponse,
  rec: Recorded | undefined,
  ctx: ForwardContext,
  finish: (end: StreamEnd) => void,
  mapEndpoint: ((data: string) => string) | undefined,
  reader: ResponseReader,
  buffers: ReadBuffers,
  targetOrigin: string,
): Relay {
  let rewriter: EndpointRewriter | undefined;
  let started = false;
  let completed = false;

  const start = (head: ResponseHead) => {
    started = true;
    let headers = endToEnd(head.headers);
    const isSse = /^text\/event-stream/i.test(headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '');
    if (isSse && mapEndpoint) {
      rewriter = createEndpointRewriter(mapEndpoint);
      headers = headers.filter(([name]) => name.toLowerCase() !== 'content-length');
    }
    if (rec) ctx.recording.respond(rec, { status: head.status, headers: asHeaders(headers) });
    if (res.destroyed) return;
    res.writeHead(head.status, head.statusText, headers.flat());
    res.flushHeaders(); // an SSE client must see the headers before the first event
  };

  /** Passes `bytes` on; false when the client's socket is full (backpressure). */
  const send = (bytes: Buffer, buf: Buffer | undefined): boolean => {
    if (bytes.length === 0 || res.destroyed) return true;
    if (rec) ctx.recording.chunk(rec, bytes, now());
    if (!buf) return res.write(bytes);
    // The client's socket may keep the bytes until the kernel takes them: the buffer is held till then.
    return res.write(bytes, buffers.hold(buf));
  };

  const complete = (upstream: Socket) => {
    if (completed) return;
    completed = true;
    if (rewriter) {
      send(rewriter.flush(), undefined);
      if (rewriter.outcome === 'gave-up') ctx.counters.endpointsNotRewritten += 1;
    }
    upstream.destroy();
    if (res.destroyed) return;
    res.end(() => finish({ state: 'complete', time: now() }));
  };

  /** The target broke off: before its head the client gets a 502 saying why; after it, the same break. */
  const broke = (upstream: Socket, reason: string, reset: boolean) => {
    if (completed || ctx.recording.frozen) return;
    completed = true;
    upstream.destroy();
    if (!started) {
      ctx.counters.targetErrors += 1;
      const text = `mcp-stream-lens proxy: the target ${targetOrigin} did not answer (${reason})\n`;
      const headers: RawHeaders = [['content-type', 'text/plain'], ['content-length', String(Buffer.byteLength(text))]];
      if (rec) {
        ctx.recording.respond(rec, { status: 502, headers: asHeaders(headers) });
        ctx.recording.chunk(rec, Buffer.from(text), now());
      }
      if (!res.destroyed && !res.headersSent) res.writeHead(502, headers.flat()).end(text);
      return finish({ state: 'complete', time: now() });
    }
    ctx.counters.targetResets += 1;
    finish({ state: 'reset', time: now(), error: reason });
    const client = res.socket;
    if (!client || client.destroyed) return;
    if (reset) client.resetAndDestroy();
    else client.end(); // a FIN without the last chunk: the client reads every byte sent, then an early end
  };

  return {
    read(n, buf, upstream) {
      let more = true;
      try {
        const got = reader.read(buf, n);
        if (got.head) start(got.head);
        if (got.end > got.start) {
          const bytes = buf.subarray(got.start, got.end);
          // While the rewriter looks for the endpoint event it keeps what it is given: a copy, then.
          more = rewriter?.outcome === 'pending' ? send(rewriter.push(Buffer.from(bytes)), undefined) : send(bytes, buf);
        }
        if (got.broken !== undefined) broke(upstream, got.broken, false);
        else if (got.done) complete(upstream);
      } catch (error) {
        broke(upstream, (error as Error).message, false);
      } finally {
        buffers.done(buf);
      }
      if (more || completed) return true;
      // Backpressure: a slow client slows the target down instead of growing the proxy's buffer.
      res.once('drain', () => upstream.resume());
      return false;
    },
    eof(upstream) {
      if (reader.eof()) return complete(upstream);
      broke(upstream, started ? 'the target closed the connection before the body ended' : 'it closed the connection without an answer', false);
    },
    broke(error, upstream) {
      const reset = error.code === 'ECONNRESET' || error.code === 'EPIPE';
      if (!started) return broke(upstream, error.code ?? error.message, reset);
      broke(upstream, reset ? 'the target reset the connection' : `the target's connection failed: ${error.code ?? error.message}`, reset);
    },
  };
}

/**
 * Whole milliseconds: a HAR's `startedDateTime` holds no finer, and chunk times are written
 * relative to it, so a fraction here would shift every event of the entry when read back.
 */
function startTime(): number {
  return Math.floor(now());
}

/** Whether a socket ended with a reset (an RST from its peer) rather than a close. */
function isReset(socket: Socket | undefined): boolean {
  const code = (socket?.errored as NodeJS.ErrnoException | null | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
