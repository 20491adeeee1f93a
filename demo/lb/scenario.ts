import { createEventStore } from '../server/event-store.js';
import type { Listening } from '../server/listen.js';
import { startReplica } from '../server/replica.js';
import { startBadReplica } from './bad-replica.js';
import { startLoadBalancer, type LoadBalancer } from './load-balancer.js';
import { startRejectingReplica } from './rejecting-replica.js';
import { createSessionTable } from './session-table.js';

/** Where the load balancer sends the client's resume after the drain. */
export type Scenario = 'genuine' | 'lost-buffer' | 'rejected';
export const SCENARIOS: readonly Scenario[] = ['genuine', 'lost-buffer', 'rejected'];

export interface ScenarioOptions {
  /** The SSE event after which the first tool-call stream is reset (the priming event counts). */
  drainAfterEvents: number;
  /** lost-buffer: the app_seq the bad replica jumps to. */
  fakeAppSeq: number;
}

/**
 * Starts two real SDK replicas sharing one event log, the scripted replica the scenario needs,
 * and the load balancer in front of them. The client talks to `lb.url` only.
 */
export async function startScenario(scenario: Scenario, options: ScenarioOptions): Promise<{ lb: LoadBalancer; close(): Promise<void> }> {
  const eventStore = createEventStore();
  const sessions = createSessionTable();
  const replicas = [await startReplica({ name: 'a', eventStore }), await startReplica({ name: 'b', eventStore })];
  const scripted: Listening | undefined =
    scenario === 'lost-buffer'
      ? await startBadReplica({ sessions, fakeAppSeq: options.fakeAppSeq })
      : scenario === 'rejected'
        ? await startRejectingReplica()
        : undefined;

  const lb = await startLoadBalancer({
    replicas: replicas.map((r) => r.url),
    sessions,
    drainAfterEvents: options.drainAfterEvents,
    // genuine: the resume goes back to the replica that owns the session. The log is shared, but
    // the SDK keeps the session itself (its transport, "initialized" state and id) in the memory
    // of the replica that ran initialize; any other SDK replica answers 404 "Session not found".
    // So the honest way to replay from a durable log is sticky routing, which is what a real
    // deployment of this SDK does; only the client's connection was drained, not the session.
    routeResume: (owner) => scripted?.url ?? owner,
  });

  return {
    lb,
    async close() {
      await lb.close();
      await Promise.all([...replicas, ...(scripted ? [scripted] : [])].map((s) => s.close()));
    },
  };
}
