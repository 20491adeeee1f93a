import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
// zod is the SDK's required peer dependency, so it is present wherever the SDK is.
import * as z from 'zod/v4';

/** Caps that keep a demo call bounded whatever the client asks for. */
export const MAX_STEPS = 1_000;
export const MAX_DELAY_MS = 5_000;
export const MAX_KEY_LENGTH = 128;

/**
 * Registers `long_task({ steps, delayMs })`.
 *
 * Each step sends `notifications/progress` for the caller's progressToken, carrying the
 * application sequence in `params._meta.app_seq` (1, 2, 3, ...). The result carries
 * `_meta.app_seq = steps + 1`, so the result itself is a step of the same sequence: a
 * synthesized result that skips steps is visible as a jump.
 *
 * `idempotencyKey` names one logical call across re-issues, as the field report asks of a client
 * that abandons a resume. The tool does not act on it; the demo load balancer reads it to tell a
 * re-issue (let through) from a new call (drained).
 */
export function registerLongTask(server: McpServer, replicaName: string): void {
  server.registerTool(
    'long_task',
    {
      description: 'Counts to `steps`, reporting progress with an app_seq counter.',
      // It changes nothing: calling it again is harmless, which a client's guard may rely on.
      annotations: { readOnlyHint: true, idempotentHint: true },
      inputSchema: {
        steps: z.number().int().min(1).max(MAX_STEPS),
        delayMs: z.number().int().min(0).max(MAX_DELAY_MS),
        idempotencyKey: z.string().max(MAX_KEY_LENGTH).optional(),
      },
    },
    async ({ steps, delayMs }, extra): Promise<CallToolResult> => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        await delay(delayMs, extra.signal);
        // A cancelled call (notifications/cancelled, or the session closing) stops counting;
        // the SDK does not send a response for it.
        if (extra.signal.aborted) break;
        if (progressToken === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: steps, _meta: { app_seq: step } },
        });
      }
      return {
        content: [{ type: 'text', text: `long_task finished ${steps} steps on ${replicaName}` }],
        _meta: { app_seq: steps + 1 },
      };
    },
  );
}

/** Waits `ms`, or less if `signal` aborts first. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** A real SDK McpServer named after its replica, with the `long_task` tool registered. */
export function createDemoServer(replicaName: string): McpServer {
  const server = new McpServer({ name: `stream-lens-demo-${replicaName}`, version: '0.1.0' });
  registerLongTask(server, replicaName);
  return server;
}
