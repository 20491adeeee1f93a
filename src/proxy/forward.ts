import { request, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { StreamEnd } from '../core/index';
import { MAX_REQUEST_RECORD_BYTES, type ProxyCounters } from './caps';
import { now } from './clock';
import { createEndpointRewriter, endpointMapper, type EndpointRewriter } from './endpoint-rewrite';
import { asHeaders, endToEnd, pairs, type RawHeaders } from './headers';
import type { Recorded, Recording } from './recording';
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
 * exactly the bytes the target sent).
 */
const NOT_FORWARDED = new Set(['host', 'accept-encoding']);

/**
 * The proxy's request handler: routes by path prefix, streams the request to the target and the
 * response back chunk by chunk (each chunk recorded with its arrival time), and passes a reset
 * on either side to the other side as one.
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
    const origin = req.headers.host ? `http://${req.headers.host}` : ctx.origin;
    const clientHeaders = pairs(req.rawHeaders);
    // Joined, not resolved: `//host/x` is a path on the target, never another host.
    const upstreamUrl = `${target.url.origin}${upstreamPath}`;
    const upstream = request({
      host: target.url.hostname.replace(/^\[|\]$/g, ''),
      port: target.url.port || 80,
      path: upstreamPath,
      method: req.method,
      headers: [...endToEnd(clientHeaders).filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase())), ['host', target.url.host]].flat(),
      // Its own upstream connection per exchange, so that one stream's reset never disturbs another.
      agent: false,
    });
    // Recorded once the request could be made (a request Node refuses to send is answered 400).
    const rec = ctx.recording.start({ method: req.method ?? 'GET', url: `${origin}${path}`, headers: asHeaders(clientHeaders), startTime: startTime() });
    const clientSocket = req.socket;
    let upstreamSocket: Socket | undefined;
    upstream.once('socket', (socket) => (upstreamSocket = socket));
    let ended = false;
    const finish = (end: StreamEnd) => {
      if (ended) return;
      ended = true;
      if (rec) ctx.recording.end(rec, end);
    };

    recordRequestBody(req, upstream, rec, ctx);
    upstream.on('response', (reply) => relay(reply, res, rec, ctx, finish, () => upstreamSocket, req.method === 'GET' ? endpointMapper(target, upstreamUrl, origin) : undefined));
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return; // the reply's own close reports it
      ctx.counters.targetErrors += 1;
      const text = `mcp-stream-lens proxy: the target ${target.url.origin} did not answer (${error.code ?? error.message})\n`;
      const headers: RawHeaders = [['content-type', 'text/plain'], ['content-length', String(Buffer.byteLength(text))]];
      if (rec) {
        ctx.recording.respond(rec, { status: 502, headers: asHeaders(headers) });
        ctx.recording.chunk(rec, Buffer.from(text), now());
      }
      if (!res.destroyed) res.writeHead(502, headers.flat()).end(text);
      finish({ state: 'complete', time: now() });
    });
    res.on('close', () => {
      if (res.writableFinished || ended || ctx.recording.frozen) return upstream.destroy();
      // The client went away mid-exchange: the target is told the same way (a reset for a reset).
      ctx.counters.clientResets += 1;
      const reset = isReset(clientSocket);
      finish({ state: reset ? 'reset' : 'cancelled', time: now(), error: reset ? 'the client reset the connection' : 'the client closed the connection before the body ended' });
      if (reset && upstreamSocket && !upstreamSocket.destroyed) upstreamSocket.resetAndDestroy();
      else upstream.destroy();
    });
  };
}

/** Streams the request body to the target (unbuffered) while recording up to its cap. */
function recordRequestBody(req: IncomingMessage, upstream: ClientRequest, rec: Recorded | undefined, ctx: ForwardContext): void {
  const parts: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_REQUEST_RECORD_BYTES) parts.push(chunk);
  });
  req.on('end', () => {
    if (!rec) return;
    if (size > MAX_REQUEST_RECORD_BYTES) ctx.counters.requestBodiesNotRecorded += 1;
    ctx.recording.requestDone(rec, size === 0 || size > MAX_REQUEST_RECORD_BYTES ? undefined : Buffer.concat(parts).toString('utf8'));
  });
  req.on('error', () => upstream.destroy());
  req.pipe(upstream);
}

function relay(
  reply: IncomingMessage,
  res: ServerResponse,
  rec: Recorded | undefined,
  ctx: ForwardContext,
  finish: (end: StreamEnd) => void,
  upstreamSocket: () => Socket | undefined,
  mapEndpoint: ((data: string) => string) | undefined,
): void {
  let headers = endToEnd(pairs(reply.rawHeaders));
  const isSse = /^text\/event-stream/i.test(String(reply.headers['content-type'] ?? ''));
  let rewriter: EndpointRewriter | undefined;
  if (isSse && mapEndpoint) {
    rewriter = createEndpointRewriter(mapEndpoint);
    headers = headers.filter(([name]) => name.toLowerCase() !== 'content-length');
  }
  if (rec) ctx.recording.respond(rec, { status: reply.statusCode ?? 0, headers: asHeaders(headers) });
  if (res.destroyed) return void reply.destroy();
  res.writeHead(reply.statusCode ?? 502, reply.statusMessage ?? '', headers.flat());
  res.flushHeaders(); // an SSE client must see the headers before the first event

  const send = (bytes: Buffer) => {
    if (bytes.length === 0) return;
    if (rec) ctx.recording.chunk(rec, bytes, now());
    // Backpressure: a slow client slows the target down instead of growing the proxy's buffer.
    if (!res.write(bytes)) {
      reply.pause();
      res.once('drain', () => reply.resume());
    }
  };
  reply.on('data', (chunk: Buffer) => send(rewriter ? rewriter.push(chunk) : chunk));
  reply.on('end', () => {
    if (rewriter) {
      send(rewriter.flush());
      if (rewriter.outcome === 'gave-up') ctx.counters.endpointsNotRewritten += 1;
    }
    res.end(() => finish({ state: 'complete', time: now() }));
  });
  reply.on('close', () => {
    if (reply.complete || ctx.recording.frozen) return;
    // The target broke off mid-body: the client sees the same break.
    ctx.counters.targetResets += 1;
    const socket = upstreamSocket();
    const reset = isReset(socket);
    finish({ state: 'reset', time: now(), error: reset ? 'the target reset the connection' : 'the target closed the connection before the body ended' });
    const client = res.socket;
    if (!client || client.destroyed) return;
    if (reset) client.resetAndDestroy();
    else client.end(); // a FIN without the last chunk: the client reads every byte sent, then an early end
  });
  reply.on('error', () => undefined); // reported by 'close' above
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
