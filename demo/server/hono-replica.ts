import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPTransport } from '@hono/mcp';
import { getRequestListener } from '@hono/node-server';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Hono } from 'hono';
import { createEventStore } from './event-store.js';
import { listen } from './listen.js';
import { createDemoServer } from './long-task.js';
import { MAX_SESSIONS, type Replica } from './replica.js';

/**
 * A replica on `@hono/mcp`: Hono's own Streamable HTTP transport (not the SDK's) in front of
 * the SDK's `McpServer` with the demo's `long_task`. One transport per session, as with the SDK
 * replica, and the same resumability through an `EventStore`. Hono answers a notification with
 * `202` and the JSON body `null`, which is one of the facts its fixtures keep.
 */
export async function startHonoReplica({ name, eventStore = createEventStore(), port = 0 }: { name: string; eventStore?: EventStore; port?: number }): Promise<Replica> {
  const sessions = new Map<string, StreamableHTTPTransport>();
  const app = new Hono();
  app.all('/mcp', async (c) => {
    const sessionId = c.req.header('mcp-session-id');
    const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (existing) return existing.handleRequest(c);
    if (sessionId !== undefined || c.req.method !== 'POST' || sessions.size >= MAX_SESSIONS) {
      // The same answers as the SDK replica: 404 for a session it does not hold, 503 when full.
      const status = sessionId !== undefined ? 404 : c.req.method !== 'POST' ? 400 : 503;
      return c.json({ jsonrpc: '2.0', error: { code: -32001, message: status === 503 ? 'Too many sessions' : 'Session not found' }, id: null }, status);
    }
    const transport: StreamableHTTPTransport = new StreamableHTTPTransport({
      sessionIdGenerator: randomUUID,
      eventStore,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createDemoServer(name).connect(transport);
    return transport.handleRequest(c);
  });
  const listening = await listen(createServer(getRequestListener(app.fetch)), port, async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
  });
  return { name, ...listening };
}
