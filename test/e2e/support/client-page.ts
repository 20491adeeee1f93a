// The e2e test page: the real SDK browser client calling the demo server's `long_task`.
// Bundled by site.ts with vite; the test drives it through `window.runMcp` and reads #status.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
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

(window as unknown as { runMcp: typeof runMcp }).runMcp = (steps, delayMs) =>
  runMcp(steps, delayMs).catch((error: unknown) => void (status.textContent = `failed: ${String(error)}`));

// `/?steps=N&delay=MS` runs the call on load (used by "Reload and capture from start").
const query = new URLSearchParams(location.search);
if (query.has('steps')) void (window as unknown as { runMcp: typeof runMcp }).runMcp(Number(query.get('steps')), Number(query.get('delay') ?? 0));
