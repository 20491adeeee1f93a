import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'vite';
import { takeReceipt } from '../../demo/lb/read-receipts.js';
import { createScenario, DEMO_FAULTS } from '../../demo/lb/scenario.js';
import { mountOf } from '../../demo/scenario-catalog.js';
import { listen } from '../../demo/server/listen.js';
import type { ServerKind } from '../../demo/server/replicas.js';

/** The scenarios the writer fixtures record: a resume that is genuine, and one that is not. */
export type WriterScenario = 'genuine' | 'lost-buffer';

/** One recording's web site: the page, and the scenario's load balancer under `/s/<scenario>/`. */
export interface RecordingSite {
  /** The page that runs the call; its load event fires once the run is over. */
  pageUrl: string;
  /** The MCP endpoint, for writers that drive their own client (mitmproxy). */
  mcpUrl: string;
  /** What the page's client believed in the end, once it said so. */
  belief(): Promise<string>;
  /** Resolves once the load balancer has seen every exchange so far end. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** mcp-lite opens its standalone GET only for a client that negotiated this revision. */
export const REVISION: Partial<Record<ServerKind, string>> = { 'mcp-lite': '2025-06-18' };
/** How long the page's client waits for a result (a server may lose it for good). */
export const CALL_TIMEOUT_MS = 3_000;

/** True for the entries a fixture keeps: the MCP exchanges, not the page, its script or `/done`. */
export const isMcpPath = (url: string): boolean => new URL(url).pathname.startsWith('/s/');

/**
 * Starts `server`'s replicas behind the demo's draining load balancer for `scenario`, on one
 * origin with the recording page (so the page needs no CORS).
 */
export async function startRecordingSite(server: ServerKind, scenario: WriterScenario): Promise<RecordingSite> {
  const [script, world] = await Promise.all([bundlePage(), createScenario(scenario, { ...DEMO_FAULTS, server, mount: mountOf(scenario) })]);
  const mcpPath = `${mountOf(scenario)}${world.clientPath}`;
  let told: (belief: string) => void = () => {};
  const belief = new Promise<string>((done) => (told = done));
  const held: ServerResponse[] = [];

  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (takeReceipt(req, res, () => world.balancer.receipts)) return;
    if (path.startsWith(`${mountOf(scenario)}/`)) return world.balancer.handle(req, res);
    if (path === '/page.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (path === '/hold') return void held.push(res);
    if (path === '/ready') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>ready</title>');
    if (path === '/done' && req.method === 'POST') {
      const parts: Buffer[] = [];
      req.on('data', (d: Buffer) => parts.push(d));
      req.on('end', () => {
        // Every MCP exchange has ended (the client's DELETE included) before the page may load.
        void world.balancer.log.settled().then(() => {
          told(Buffer.concat(parts).toString('utf8'));
          res.writeHead(204).end();
          for (const r of held.splice(0)) r.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
        });
      });
      return;
    }
    if (path === '/') {
      const html = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>${server} ${scenario}</title><p id="status">running</p><script src="/page.js"></script><img src="/hold" alt="">`;
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    }
    res.writeHead(404).end();
  });
  const listening = await listen(http);
  const origin = new URL(listening.url).origin;
  const query = new URLSearchParams({ mcp: mcpPath, timeout: String(CALL_TIMEOUT_MS), ...(REVISION[server] !== undefined && { revision: REVISION[server] }) });
  return {
    pageUrl: `${origin}/?${query}`,
    mcpUrl: `${origin}${mcpPath}`,
    belief: () => belief,
    settled: () => world.balancer.log.settled(),
    async close() {
      for (const r of held.splice(0)) r.destroy();
      await listening.close();
      await world.close();
    },
  };
}

let bundled: Promise<string> | undefined;

/** The page script as one classic script (vite library build, kept in memory). */
function bundlePage(): Promise<string> {
  bundled ??= build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: resolve(import.meta.dirname, 'page.ts'), formats: ['iife'], name: 'RecordingPage', fileName: () => 'page.js' } },
  }).then((out) => {
    for (const o of Array.isArray(out) ? out : [out]) if ('output' in o) for (const chunk of o.output) if (chunk.type === 'chunk') return chunk.code;
    throw new Error('the page bundle is missing');
  });
  return bundled;
}
