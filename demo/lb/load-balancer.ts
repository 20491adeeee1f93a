import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen, type Listening } from '../server/listen.js';
import { createExchangeLog, header, pairs, since, type ExchangeLog } from './exchange.js';
import { forward } from './proxy.js';
import { sendSimple } from './respond.js';
import { createReadReceipts, type ReadReceipts } from './read-receipts.js';
import { parseToolCall, type SessionTable, type ToolCall } from './session-table.js';

/** Request bodies above this get 413; MCP requests are small JSON-RPC messages. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface LoadBalancerOptions {
  /** Endpoints of the real replicas; new sessions go round-robin, then stick to their owner. */
  replicas: readonly string[];
  sessions: SessionTable;
  /** Where a resume (`GET` + `Last-Event-ID`) goes, given the replica that owns the session. */
  routeResume(owner: string): string;
  /** Cut the first attempt of each tools/call stream after this many SSE events (a backend drain). */
  drainAfterEvents?: number;
  /** Cut each session's first standalone GET (no `Last-Event-ID`) after this many SSE events. */
  drainGetAfterEvents?: number;
  /**
   * A path prefix the balancer is mounted under (e.g. `/s/genuine`): stripped before forwarding,
   * so replicas see the paths they serve. Empty when the balancer has its own port.
   */
  mount?: string;
  port?: number;
}

/** Drained calls remembered at most, to let their re-issues through. */
export const MAX_DRAINED_CALLS = 256;

/** A load balancer not bound to a port: a request handler plus its recording. */
export interface Balancer {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Every exchange that passed through, as the client saw it. */
  log: ExchangeLog;
  /** What the page's client says it has read; a drain's cut waits for it. */
  receipts: ReadReceipts;
}

export interface LoadBalancer extends Listening {
  /** Every exchange that passed through, as the client saw it. */
  log: ExchangeLog;
}

/** A recording, fault-injecting HTTP load balancer on 127.0.0.1, on its own port. */
export async function startLoadBalancer(options: LoadBalancerOptions): Promise<LoadBalancer> {
  const { handle, log } = createBalancer(options);
  const listening = await listen(createServer(handle), options.port);
  return { ...listening, log };
}

/**
 * The balancer's request handler, to mount on any server. It records each exchange, routes it
 * (round-robin for new sessions, sticky after, `routeResume` for resumes) and drains the first
 * attempt of each tool call: a call is the same call across re-issues when it carries the same
 * `idempotencyKey`, and otherwise only within its session.
 */
export function createBalancer(options: LoadBalancerOptions): Balancer {
  const { replicas, sessions, routeResume, drainAfterEvents, drainGetAfterEvents, mount = '' } = options;
  const log = createExchangeLog();
  const receipts = createReadReceipts();
  const drained = new Set<string>();
  const drainedGets = new Set<string>();
  let nextReplica = 0;

  const firstAttempt = (call: ToolCall, sessionId: string | undefined): boolean => {
    const identity = call.idempotencyKey !== undefined ? `key:${call.idempotencyKey}` : `session:${sessionId ?? ''}`;
    if (drained.has(identity)) return false;
    drained.add(identity);
    if (drained.size > MAX_DRAINED_CALLS) drained.delete(drained.values().next().value!);
    return true;
  };
  const firstGet = (sessionId: string): boolean => {
    if (drainedGets.has(sessionId)) return false;
    drainedGets.add(sessionId);
    if (drainedGets.size > MAX_DRAINED_CALLS) drainedGets.delete(drainedGets.values().next().value!);
    return true;
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
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
      const replica = owner === undefined ? (replicas[nextReplica++ % replicas.length] ?? '') : isResume ? routeResume(owner) : owner;
      const drainThis = call !== undefined && drainAfterEvents !== undefined && firstAttempt(call, sessionId);
      const drainGet = req.method === 'GET' && !isResume && sessionId !== undefined && drainGetAfterEvents !== undefined && firstGet(sessionId);
      // A GET names no call: the session's last one is what its progress belongs to.
      const key = call?.idempotencyKey ?? (sessionId === undefined ? undefined : sessions.lastToolCall(sessionId)?.idempotencyKey);
      const path = (req.url ?? '/').startsWith(mount) ? (req.url ?? '/').slice(mount.length) || '/' : (req.url ?? '/');

      forward(exchange, res, log, {
        upstream: new URL(path, replica).href,
        drainAfterEvents: drainThis ? drainAfterEvents : drainGet ? drainGetAfterEvents : undefined,
        readBeforeCut: (progress) => receipts.read(key, progress),
        onResponse(headers) {
          const id = header(headers, 'mcp-session-id');
          if (id !== undefined && sessions.owner(id) === undefined) sessions.setOwner(id, replica);
        },
      });
    }, () => {
      log.finish(exchange, 'aborted');
      res.destroy();
    });
  };
  return { handle, log, receipts };
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
