// The e2e test page: the real SDK browser client calling the demo server's `long_task`.
// Bundled by site.ts with vite; the test drives it through `window.runMcp` and reads #status.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const status = document.getElementById('status')!;
const progress = document.getElementById('progress')!;

async function runMcp(steps: number, delayMs: number): Promise<void> {
  const client = new Client({ name: 'stream-lens-e2e', version: '0.1.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', location.href), {
    // Resume quickly after the test resets the connection.
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  await client.connect(transport);
  status.textContent = 'connected';
  const result = await client.callTool({ name: 'long_task', arguments: { steps, delayMs } }, undefined, {
    onprogress: (p) => void (progress.textContent = String(p.progress)),
    timeout: 60_000,
    resetTimeoutOnProgress: true,
  });
  status.textContent = `done: ${JSON.stringify(result.content)}`;
  await client.close();
}

/** The SDK's client for the legacy HTTP+SSE transport (its event stream is read with fetch). */
async function runLegacy(): Promise<void> {
  const client = new Client({ name: 'stream-lens-e2e-legacy', version: '0.1.0' });
  await client.connect(new SSEClientTransport(new URL('/legacy/sse', location.href)));
  const result = await client.callTool({ name: 'long_task', arguments: { steps: 3, delayMs: 10 } }, undefined, { onprogress: () => undefined });
  status.textContent = `done: ${JSON.stringify(result.content)}`;
  await client.close();
}
(window as unknown as { runLegacy: () => void }).runLegacy = () => void runLegacy().catch((error: unknown) => void (status.textContent = `failed: ${String(error)}`));

(window as unknown as { runMcp: typeof runMcp }).runMcp = (steps, delayMs) =>
  runMcp(steps, delayMs).catch((error: unknown) => void (status.textContent = `failed: ${String(error)}`));

// `/?steps=N&delay=MS` runs the call on load (used by "Reload and capture from start").
const query = new URLSearchParams(location.search);
if (query.has('steps')) void (window as unknown as { runMcp: typeof runMcp }).runMcp(Number(query.get('steps')), Number(query.get('delay') ?? 0));
