import { createServer, type IncomingMessage } from 'node:http';
import { listen, type Listening } from '../server/listen.js';
import { createExchangeLog, header, pairs, since, type ExchangeLog } from './exchange.js';
import { forward } from './proxy.js';
import { sendSimple } from './respond.js';
import { parseToolCall, type SessionTable } from './session-table.js';

/** Request bodies above this get 413; MCP requests are small JSON-RPC messages. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface LoadBalancerOptions {
  /** Endpoints of the real replicas; new sessions go round-robin, then stick to their owner. */
  replicas: readonly string[];
  sessions: SessionTable;
  /** Where a resume (`GET` + `Last-Event-ID`) goes, given the replica that owns the session. */
  routeResume(owner: string): string;
  /** Reset the first tools/call stream after this many SSE events (a backend drain). */
  drainAfterEvents?: number;
  port?: number;
}

export interface LoadBalancer extends Listening {
  /** Every exchange that passed through, as the client saw it. */
  log: ExchangeLog;
}

/** A recording, fault-injecting HTTP load balancer on 127.0.0.1. */
export async function startLoadBalancer(options: LoadBalancerOptions): Promise<LoadBalancer> {
  const { replicas, sessions, routeResume, drainAfterEvents } = options;
  const log = createExchangeLog();
  let nextReplica = 0;
  let drained = false;

  const server = createServer((req, res) => {
    const exchange = log.start({
      method: req.method ?? 'GET',
      url: `http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`,
      httpVersion: `HTTP/${req.httpVersion}`,
      headers: pairs(req.rawHeaders),
      body: Buffer.alloc(0),
    });
    readBody(req).then((body) => {
      exchange.sentAt = since(exchange);
      if (body === undefined) return sendSimple(exchange, res, log, 413, 'request body too large');
      exchange.request.body = body;

      const sessionId = header(exchange.request.headers, 'mcp-session-id');
      const owner = sessionId === undefined ? undefined : sessions.owner(sessionId);
      const call = parseToolCall(body);
      if (call && sessionId !== undefined) sessions.noteToolCall(sessionId, call);
      const isResume = req.method === 'GET' && header(exchange.request.headers, 'last-event-id') !== undefined;
      const upstream = owner === undefined ? (replicas[nextReplica++ % replicas.length] ?? '') : isResume ? routeResume(owner) : owner;
      // Only the first tool call is drained; a re-issued call must be able to finish.
      const drainThis = call !== undefined && !drained && drainAfterEvents !== undefined;
      if (drainThis) drained = true;

      forward(exchange, res, log, {
        upstream,
        drainAfterEvents: drainThis ? drainAfterEvents : undefined,
        onResponse(headers) {
          const id = header(headers, 'mcp-session-id');
          if (id !== undefined && sessions.owner(id) === undefined) sessions.setOwner(id, upstream);
        },
      });
    }, () => {
      log.finish(exchange, 'aborted');
      res.destroy();
    });
  });

  const listening = await listen(server, options.port);
  return { ...listening, log };
}

/** The whole body, or undefined when it exceeds {@link MAX_BODY_BYTES}. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : undefined));
    req.on('error', reject);
  });
}
