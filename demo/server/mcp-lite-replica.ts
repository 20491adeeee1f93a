import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { InMemorySessionAdapter, McpServer, StreamableHttpTransport } from 'mcp-lite';
import { listen } from './listen.js';
import { MAX_DELAY_MS, MAX_STEPS } from './long-task.js';
import type { Replica } from './replica.js';

/** Events each session's replay buffer keeps (mcp-lite's own cap). */
export const MAX_EVENT_BUFFER = 1_024;

/**
 * A replica on `mcp-lite`, a server written without the SDK, with the demo's `long_task`
 * (progress carrying `_meta.app_seq`, the result `_meta.app_seq = steps + 1`).
 *
 * Its transport differs from the SDK's in ways the fixtures keep: events on a POST stream carry
 * no `id:`, every notification is also stored with an id in the session's standalone-GET
 * buffer, and once the POST stream is gone the call's progress goes out on the standalone GET
 * (and its result nowhere). A resume of that GET replays the buffer faithfully.
 */
export async function startMcpLiteReplica({ name, port = 0 }: { name: string; port?: number }): Promise<Replica> {
  const mcp = new McpServer({ name: `stream-lens-demo-${name}`, version: '0.1.0' });
  mcp.tool('long_task', {
    description: 'Counts to `steps`, reporting progress with an app_seq counter.',
    inputSchema: {
      type: 'object',
      properties: { steps: { type: 'integer', minimum: 1, maximum: MAX_STEPS }, delayMs: { type: 'integer', minimum: 0, maximum: MAX_DELAY_MS }, idempotencyKey: { type: 'string' } },
      required: ['steps', 'delayMs'],
    },
    handler: async (args: { steps: number; delayMs: number }, ctx) => {
      const steps = Math.min(Math.max(1, Math.trunc(args.steps)), MAX_STEPS);
      const delayMs = Math.min(Math.max(0, Math.trunc(args.delayMs)), MAX_DELAY_MS);
      for (let step = 1; step <= steps; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        await ctx.progress?.({ progress: step, total: steps, _meta: { app_seq: step } } as { progress: number; total: number });
      }
      return { content: [{ type: 'text', text: `long_task finished ${steps} steps on ${name}` }], _meta: { app_seq: steps + 1 } };
    },
  });
  const transport = new StreamableHttpTransport({ sessionAdapter: new InMemorySessionAdapter({ maxEventBufferSize: MAX_EVENT_BUFFER }) });
  const handle = transport.bind(mcp);
  const listening = await listen(
    createServer(getRequestListener((request) => (new URL(request.url).pathname === '/mcp' ? handle(request) : new Response(null, { status: 404 })))),
    port,
  );
  return { name, ...listening };
}
