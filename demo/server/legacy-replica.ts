import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { listenWith } from './listen.js';
import { createDemoServer } from './long-task.js';
import { MAX_SESSIONS, type Replica } from './replica.js';

export interface LegacyReplicaOptions {
  name: string;
  port?: number;
  /**
   * The POST endpoint as the client must see it. Behind a proxy that mounts this replica under a
   * path prefix, that is the public path (e.g. `/s/legacy-sse/messages`), while the replica
   * itself still receives `/messages`.
   */
  messagesPath?: string;
}

/**
 * A replica on the 2024-11-05 HTTP+SSE transport, with the SDK's own `SSEServerTransport`:
 * `GET /sse` opens the session's event stream (its first event, `endpoint`, names the POST URL
 * with `?sessionId=`), and `POST /messages?sessionId=` delivers client messages, answered 202;
 * replies and progress come back on the GET stream. That transport has no event ids and no
 * resumption. `url` is the `/sse` endpoint.
 */
export async function startLegacyReplica({ name, port = 0, messagesPath = '/messages' }: LegacyReplicaOptions): Promise<Replica> {
  const sessions = new Map<string, SSEServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      if (sessions.size >= MAX_SESSIONS) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('Too many sessions');
      const transport = new SSEServerTransport(messagesPath, res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => void sessions.delete(transport.sessionId);
      const server = createDemoServer(name);
      await server.connect(transport); // starts the stream and sends the endpoint event
      return;
    }
    const transport = url.pathname === '/messages' ? sessions.get(url.searchParams.get('sessionId') ?? '') : undefined;
    if (req.method === 'POST' && transport) return transport.handlePostMessage(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end(transport === undefined && url.pathname === '/messages' ? 'Unknown session' : 'Not found');
  }

  const listening = await listenWith(handle, port, async () => {
    await Promise.all([...sessions.values()].map((t) => t.close()));
  });
  return { name, ...listening, url: listening.url.replace(/\/mcp$/, '/sse') };
}
