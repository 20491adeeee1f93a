import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { STATELESS_REVISION } from '../scenario-catalog.js';
import { createEventStore } from './event-store.js';
import { listenWith } from './listen.js';
import { createDemoServer } from './long-task.js';
import type { Replica } from './replica.js';

/**
 * A replica in the SDK's stateless mode (`sessionIdGenerator: undefined`): every POST gets a
 * fresh `McpServer` and transport, as the SDK's stateless example does, so any replica can serve
 * any request and nothing outlives the request. `GET` and `DELETE` get the example's honest 405:
 * there is no stream to resume.
 *
 * Its transports still have an event store, so POST streams carry `id:`s. That is the
 * misconfiguration the scenario shows: the ids make the client believe it can resume, and its
 * `Last-Event-ID` then meets a server that has no resumption at all.
 */
export async function startStatelessReplica({ name, port = 0 }: { name: string; port?: number }): Promise<Replica> {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return void res.writeHead(404).end();
    if (req.method !== 'POST') {
      const error = { code: -32000, message: 'Method not allowed.' };
      return void res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
    }
    // SDK 1.32 predates 2026-07-28 and answers any revision it does not know with 400. This
    // replica serves the stateless subset the SDK already implements, so it reads that revision
    // as the newest one the SDK speaks.
    // The SDK's Node transport reads `rawHeaders`, so both views are rewritten.
    if (req.headers['mcp-protocol-version'] === STATELESS_REVISION) {
      req.headers['mcp-protocol-version'] = LATEST_PROTOCOL_VERSION;
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        if (req.rawHeaders[i]!.toLowerCase() === 'mcp-protocol-version') req.rawHeaders[i + 1] = LATEST_PROTOCOL_VERSION;
      }
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, eventStore: createEventStore() });
    const server = createDemoServer(name);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  return { name, ...(await listenWith(handle, port)) };
}
