import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { endToEnd, pairs } from '../../src/proxy/headers.js';
import { since, type Exchange, type ExchangeLog, type RawHeaders } from './exchange.js';
import { sendHead, sendSimple } from './respond.js';
import { createSseBoundaries } from '../../src/proxy/sse-boundaries.js';
import { createParser } from 'eventsource-parser';
import { progressOf } from './read-receipts.js';

export interface ForwardOptions {
  /** Absolute URL on the replica: its origin plus the request's path and query. */
  upstream: string;
  /** Cut the client connection right after this many SSE events of the response. */
  drainAfterEvents?: number;
  /** Sees the response headers before the client does (sticky sessions learn owners here). */
  onResponse?(headers: RawHeaders): void;
  /** Resolves once the client has read this `progress` (see read-receipts.ts); the cut waits for it. */
  readBeforeCut?(progress: number): Promise<void>;
}

/**
 * Forwards one buffered request to `upstream` and streams the response back, recording each
 * chunk as it is written to the client. Response headers keep the replica's order and spelling;
 * hop-by-hop headers are the load balancer's own, as with any real proxy.
 */
export function forward(exchange: Exchange, res: ServerResponse, log: ExchangeLog, options: ForwardOptions): void {
  const target = new URL(options.upstream);
  const headers = endToEnd(exchange.request.headers);
  // agent: false gives every exchange its own upstream connection, so cutting one stream's
  // upstream never disturbs another exchange.
  const upstream = request({
    host: target.hostname,
    port: target.port,
    path: target.pathname + target.search,
    method: exchange.request.method,
    headers: Object.fromEntries(headers),
    agent: false,
  });

  res.on('close', () => {
    // The client went away before the body ended (e.g. it aborted its fetch).
    if (!res.writableFinished) log.finish(exchange, 'aborted');
    upstream.destroy();
  });
  upstream.on('error', (error) => {
    if (res.headersSent) {
      log.finish(exchange, 'reset');
      return void res.destroy();
    }
    sendSimple(exchange, res, log, 502, String(error));
  });
  upstream.on('response', (reply) => relay(reply, exchange, res, log, options));
  upstream.end(exchange.request.body);
}

function relay(reply: IncomingMessage, exchange: Exchange, res: ServerResponse, log: ExchangeLog, options: ForwardOptions): void {
  const headers = endToEnd(pairs(reply.rawHeaders));
  options.onResponse?.(headers);
  sendHead(exchange, res, reply.statusCode ?? 502, reply.statusMessage ?? '', headers);

  const limit = options.drainAfterEvents;
  const boundaries = limit === undefined ? undefined : createSseBoundaries();
  // The highest progress among the events passed, which the client must have read before the cut.
  let progress = 0;
  const passed = limit === undefined ? undefined : createParser({ onEvent: (event) => void (progress = Math.max(progress, progressOf(event.data) ?? 0)) });
  const decoder = new TextDecoder();
  let events = 0;
  reply.on('data', (chunk: Buffer) => {
    // With a drain: pass events 1..limit, hold back whatever follows, and cut the connection
    // when event limit + 1 has arrived (it is never sent) and the client has read event limit.
    const before = events;
    let keep = chunk.length;
    let cut = false;
    for (const end of boundaries?.feed(chunk) ?? []) {
      events += 1;
      if (events === limit) keep = end;
      else if (events === limit! + 1) {
        cut = true;
        break;
      }
    }
    if (limit !== undefined && before >= limit) keep = 0;
    const piece = chunk.subarray(0, keep);
    if (piece.length > 0) exchange.chunks.push({ t: since(exchange), bytes: Buffer.from(piece) });
    if (passed && piece.length > 0) passed.feed(decoder.decode(piece, { stream: true }));
    if (!cut) {
      // Backpressure: a slow client slows the replica down instead of growing our buffer.
      if (piece.length > 0 && !res.write(piece)) {
        reply.pause();
        res.once('drain', () => reply.resume());
      }
      return;
    }
    // Close the connection without the final chunk, as a proxy does when its backend goes away
    // mid-response: the client reads every byte sent before the FIN, then sees the body end
    // early. (An RST would also let the client's kernel discard bytes not read yet.)
    reply.pause();
    res.write(piece, () => {
      void (options.readBeforeCut?.(progress) ?? Promise.resolve()).then(() => {
        if (res.destroyed) return; // the client went first (logged as aborted)
        log.finish(exchange, 'cut');
        res.socket?.end();
        // Closing the upstream is what makes the SDK drop its registration of this stream; while
        // it holds one, it answers a resume of the stream with 409 "already has an active connection".
        reply.destroy();
      });
    });
  });
  // A replica that breaks mid-body looks like a reset to the client, too.
  reply.on('error', () => {
    log.finish(exchange, 'reset');
    res.destroy();
  });
  reply.on('end', () => res.end(() => log.finish(exchange, 'complete')));
}
