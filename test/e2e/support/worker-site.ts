import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { build } from 'vite';
import { createScenario, DEMO_FAULTS, type ScenarioWorld } from '../../../demo/lb/scenario';
import { mountOf, type Scenario } from '../../../demo/scenario-catalog';

/**
 * A 127.0.0.1 site whose page runs the real SDK client in a dedicated Worker, against the demo's
 * scenarios: each one the real SDK server behind the demo's fault-injecting load balancer,
 * mounted at `/s/<scenario>/`. `window.runWorker(scenario, steps, delayMs)` starts a call and
 * writes `done <belief>` into #status when the Worker reports back. `window.runFrame(scenario,
 * steps, delayMs, pristine)` does the same from the page itself, with the page's fetch or, when
 * `pristine`, with an about:blank frame's (frame-client.ts). `window.startShared()` starts a
 * SharedWorker (shared-worker-client.ts) and `window.runShared(scenario, steps, delayMs)` has it
 * make the call.
 */
export interface WorkerSite {
  origin: string;
  close(): Promise<void>;
}

async function bundle(file: string): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: resolve(import.meta.dirname, file), formats: ['iife'], name: 'McpClient', fileName: () => 'client.js' } },
  });
  const outputs = Array.isArray(out) ? out : [out];
  for (const o of outputs) if ('output' in o) for (const chunk of o.output) if (chunk.type === 'chunk') return chunk.code;
  throw new Error(`bundle of ${file} missing`);
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>worker client</title><p id="status">idle</p>
<script>
window.runWorker = (scenario, steps, delayMs) => {
  const status = document.getElementById('status');
  status.textContent = 'running ' + scenario;
  const worker = new Worker('/worker.js');
  worker.onmessage = (e) => { status.textContent = 'done ' + e.data.belief + ' ' + e.data.progress; worker.terminate(); };
  worker.postMessage({ url: location.origin + '/s/' + scenario + '/mcp', steps, delayMs });
};
window.runFrame = (scenario, steps, delayMs, pristine) => {
  const status = document.getElementById('status');
  status.textContent = 'running ' + scenario;
  window.runFramed(location.origin + '/s/' + scenario + '/mcp', steps, delayMs, pristine)
    .then((r) => { status.textContent = 'done ' + r.belief + ' ' + r.progress; });
};
let shared;
window.startShared = () => { shared = new SharedWorker('/shared.js', { name: String(Math.random()) }); };
window.runShared = (scenario, steps, delayMs) => {
  const status = document.getElementById('status');
  status.textContent = 'running ' + scenario;
  shared.port.onmessage = (e) => { status.textContent = 'done ' + e.data.belief + ' ' + e.data.progress; };
  shared.port.postMessage({ url: location.origin + '/s/' + scenario + '/mcp', steps, delayMs });
};
</script><script src="/frame.js"></script>`;

export async function startWorkerSite(scenarios: readonly Scenario[]): Promise<WorkerSite> {
  const worlds = new Map<Scenario, ScenarioWorld>();
  const [code, frameCode, sharedCode] = await Promise.all([
    bundle('worker-client.ts'),
    bundle('frame-client.ts'),
    bundle('shared-worker-client.ts'),
    ...scenarios.map(async (s) => void worlds.set(s, await createScenario(s, { ...DEMO_FAULTS, mount: mountOf(s) }))),
  ]);
  const server = createServer((req, res) => {
    const match = /^\/s\/([a-z-]+)(?:[/?]|$)/.exec(req.url ?? '/');
    const world = match ? worlds.get(match[1] as Scenario) : undefined;
    if (world) return world.balancer.handle(req, res);
    if (req.url === '/worker.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
    if (req.url === '/frame.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(frameCode);
    if (req.url === '/shared.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(sharedCode);
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await Promise.all([...worlds.values()].map((w) => w.close()));
    },
  };
}
