import { createServer } from 'node:http';
import { clientPathOf, type Scenario } from '../scenario-catalog.js';
import { listen, type Listening } from '../server/listen.js';
import { createBalancer, type Balancer, type LoadBalancer } from './load-balancer.js';
import { startBackends } from './backends.js';
import { createSessionTable } from './session-table.js';
import type { ServerKind } from '../server/replicas.js';

export { SCENARIOS, type Scenario } from '../scenario-catalog.js';

export interface ScenarioOptions {
  /** The SSE event after which the first tool-call stream is reset (the priming event counts). */
  drainAfterEvents: number;
  /** Servers that move progress to the standalone GET: the event after which that GET is reset. */
  drainGetAfterEvents?: number;
  /** The replicas' implementation (default: the SDK's). */
  server?: ServerKind;
  /** lost-buffer: the app_seq the bad replica jumps to. */
  fakeAppSeq: number;
  /** Path prefix when the balancer is mounted on a shared site (see {@link createScenario}). */
  mount?: string;
}

/** The faults every demo run uses: drain after the priming event and app_seq 1..5; jump to 11. */
export const DEMO_FAULTS: ScenarioOptions = { drainAfterEvents: 6, drainGetAfterEvents: 2, fakeAppSeq: 11 };

/** One scenario's world: its replicas and the load balancer in front, not yet on a port. */
export interface ScenarioWorld {
  scenario: Scenario;
  balancer: Balancer;
  /** The path clients connect to, relative to where the balancer is served. */
  clientPath: '/mcp' | '/sse';
  close(): Promise<void>;
}

/**
 * Starts the replicas a scenario needs (real SDK servers, plus a scripted one for faults that no
 * real server produces on demand) and the load balancer in front of them. The balancer is a
 * handler; serve it on its own port with {@link startScenario} or mount it on a shared site.
 */
export async function createScenario(scenario: Scenario, options: ScenarioOptions): Promise<ScenarioWorld> {
  const sessions = createSessionTable();
  const backends = await startBackends(scenario, sessions, options);
  const balancer = createBalancer({
    replicas: backends.replicas.map((r) => r.url),
    sessions,
    routeResume: backends.routeResume,
    drainAfterEvents: backends.drain ? options.drainAfterEvents : undefined,
    drainGetAfterEvents: backends.drainGet ? options.drainGetAfterEvents : undefined,
    mount: options.mount ?? '',
  });
  return { scenario, balancer, clientPath: clientPathOf(scenario), close: backends.close };
}

/** A scenario behind its own load balancer port; `lb.url` is the endpoint a client connects to. */
export async function startScenario(scenario: Scenario, options: ScenarioOptions): Promise<{ lb: LoadBalancer; close(): Promise<void> }> {
  const world = await createScenario(scenario, { ...options, mount: '' });
  let listening: Listening;
  try {
    listening = await listen(createServer(world.balancer.handle));
  } catch (error) {
    await world.close();
    throw error;
  }
  const origin = new URL(listening.url).origin;
  return {
    lb: { url: `${origin}${world.clientPath}`, close: listening.close, log: world.balancer.log },
    async close() {
      await listening.close();
      await world.close();
    },
  };
}
