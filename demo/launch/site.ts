import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { takeReceipt } from '../lb/read-receipts.js';
import { createScenario, DEMO_FAULTS, type ScenarioWorld } from '../lb/scenario.js';
import { mountOf, type Scenario } from '../scenario-catalog.js';
import { listen } from '../server/listen.js';
import { DemoError } from './demo-error.js';
import { serveStatic } from './static-files.js';

/** Where `vite build --config demo/page/vite.config.ts` puts the page. */
export const PAGE_DIR = resolve(import.meta.dirname, '../../dist/demo-page');

export interface Site {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  worlds: ReadonlyMap<Scenario, ScenarioWorld>;
  close(): Promise<void>;
}

/**
 * The demo on one origin: the page at `/`, and each scenario's load balancer mounted at
 * `/s/<scenario>/` (its own replicas, drain state and recording behind it).
 *
 * One origin rather than one port per scenario: the page needs no CORS (so no preflights in the
 * capture, and `Mcp-Session-Id` needs no expose-headers), only one port can be in use, and every
 * scenario stays a separate session in the panel because its path differs.
 */
export async function startSite({ port, scenarios }: { port: number; scenarios: readonly Scenario[] }): Promise<Site> {
  const worlds = new Map<Scenario, ScenarioWorld>();
  const closeWorlds = () => Promise.all([...worlds.values()].map((w) => w.close()));
  try {
    for (const scenario of scenarios) worlds.set(scenario, await createScenario(scenario, { ...DEMO_FAULTS, mount: mountOf(scenario) }));
  } catch (error) {
    await closeWorlds();
    throw error;
  }

  const server = createServer((req, res) => {
    if (takeReceipt(req, res, (query) => worlds.get(query.get('scenario') as Scenario)?.balancer.receipts)) return;
    const match = /^\/s\/([a-z-]+)(?:[/?]|$)/.exec(req.url ?? '/');
    const world = match ? worlds.get(match[1] as Scenario) : undefined;
    if (world) return world.balancer.handle(req, res);
    if (match) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('This scenario is not running');
    serveStatic(PAGE_DIR, req, res).catch(() => res.destroy());
  });
  try {
    const listening = await listen(server, port);
    return {
      origin: new URL(listening.url).origin,
      worlds,
      async close() {
        await listening.close();
        await closeWorlds();
      },
    };
  } catch (error) {
    await closeWorlds();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new DemoError(`port ${port} on 127.0.0.1 is in use: stop what uses it, or pass --port N (0 picks a free port)`);
    if (code === 'EACCES') throw new DemoError(`port ${port} needs privileges: pass --port N with N above 1023 (0 picks a free port)`);
    throw error;
  }
}
