import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createEventStore } from './event-store.js';
import { listenWith, type Listening } from './listen.js';
import { createDemoServer } from './long-task.js';

/** Sessions one replica holds at most; a demo never needs more. */
export const MAX_SESSIONS = 64;

export interface ReplicaOptions {
  /** 0 or absent: an ephemeral port. */
  port?: number;
  /** Pass one store to several replicas to model a durable shared event log. */
  eventStore?: EventStore;
  name: string;
}

export interface Replica extends Listening {
  name: string;
}

/**
 * Starts one replica: the real SDK `McpServer` over the SDK's Node `StreamableHTTPServerTransport`,
 * stateful (one transport per `Mcp-Session-Id`), with resumability through an event store.
 */
export async function startReplica({ port = 0, eventStore = createEventStore(), name }: ReplicaOptions): Promise<Replica> {
  // The SDK keeps a session (transport and McpServer) in process memory. That is why a resume
  // can only be served honestly by the replica that initialized the session, even when the
  // event log itself is shared.
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (sessionId !== undefined || req.method !== 'POST' || sessions.size >= MAX_SESSIONS) {
      // The SDK transport's own answer for a session it does not hold (503 when full).
      const status = sessionId !== undefined ? 404 : req.method !== 'POST' ? 400 : 503;
      const error = { code: -32001, message: status === 503 ? 'Too many sessions' : 'Session not found' };
      return void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createDemoServer(name);
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }


  const listening = await listenWith(handle, port, async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
  });
  return { name, ...listening };
}
