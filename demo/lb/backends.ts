import type { Scenario } from '../scenario-catalog.js';
import { replayingTooEarly } from '../server/early-replay-store.js';
import { createEventStore, type SharedEventStore } from '../server/event-store.js';
import { startLegacyReplica } from '../server/legacy-replica.js';
import type { Listening } from '../server/listen.js';
import { startReplicaOf, type ServerKind } from '../server/replicas.js';
import { startStatelessReplica } from '../server/stateless-replica.js';
import { startBadReplica } from './bad-replica.js';
import { startEmptyReplica } from './empty-replica.js';
import { startRejectingReplica } from './rejecting-replica.js';
import type { SessionTable } from './session-table.js';

/** duplicate: how many events before `Last-Event-ID` the faulty store replays from. */
export const REPLAY_TOO_EARLY_BY = 2;

/** What a scenario puts behind its load balancer. */
export interface Backends {
  /** Where new sessions (and sessionless requests) go, round-robin. */
  replicas: readonly Listening[];
  /** Where a resume goes, given the session's owner. */
  routeResume(owner: string): string;
  /** Whether the first attempt of a tool call is drained. */
  drain: boolean;
  /** Whether each session's first standalone GET is drained too (for servers that move progress there). */
  drainGet?: boolean;
  close(): Promise<void>;
}

/** Starts the servers of one scenario; on any failure, closes what already started. */
export async function startBackends(
  scenario: Scenario,
  sessions: SessionTable,
  options: { fakeAppSeq: number; mount?: string; /** The replicas' implementation (default: the SDK's). */ server?: ServerKind },
): Promise<Backends> {
  const server = options.server ?? 'sdk';
  if (server !== 'sdk' && scenario !== 'genuine' && scenario !== 'lost-buffer') throw new Error(`the ${server} replicas serve the genuine and lost-buffer scenarios only`);
  // mcp-lite puts a call's progress on the standalone GET once its POST stream is gone.
  const drainGet = server === 'mcp-lite';
  const started: Listening[] = [];
  const close = async () => void (await Promise.all(started.map((s) => s.close())));
  const keep = async <T extends Listening>(server: Promise<T>): Promise<T> => {
    const listening = await server;
    started.push(listening);
    return listening;
  };
  // Two real replicas of `server` sharing one event log (a durable shared log; mcp-lite keeps
  // its own buffer per replica, see replicas.ts).
  const pair = async (eventStore: SharedEventStore = createEventStore()) => [
    await keep(startReplicaOf(server, { name: 'a', eventStore })),
    await keep(startReplicaOf(server, { name: 'b', eventStore })),
  ];
  // The SDK keeps a session (its transport, "initialized" state and id) in the memory of the
  // replica that ran initialize; any other SDK replica answers 404 "Session not found". So the
  // honest way to replay from a durable log is sticky routing: only the client's connection was
  // drained, not the session.
  const sticky = (owner: string) => owner;

  try {
    switch (scenario) {
      case 'genuine':
        return { replicas: await pair(), routeResume: sticky, drain: true, drainGet, close };
      case 'duplicate':
        // Real SDK replicas whose shared store replays from too early: ids and app_seq repeat.
        return { replicas: await pair(replayingTooEarly(createEventStore(), REPLAY_TOO_EARLY_BY)), routeResume: sticky, drain: true, close };
      case 'expired': {
        // The resume lands on the other real replica, which never had the session: its real 404.
        const replicas = await pair();
        return { replicas, routeResume: (owner) => replicas.find((r) => r.url !== owner)?.url ?? owner, drain: true, close };
      }
      case 'lost-buffer':
      case 'rejected':
      case 'empty': {
        const replicas = await pair();
        const scripted = await keep(
          scenario === 'lost-buffer'
            ? startBadReplica({ sessions, fakeAppSeq: options.fakeAppSeq })
            : scenario === 'rejected'
              ? startRejectingReplica()
              : startEmptyReplica(),
        );
        return { replicas, routeResume: () => scripted.url, drain: true, drainGet, close };
      }
      case 'legacy-sse':
        // One replica: the legacy transport's POSTs name their session only in the query, and it
        // has no resumption to route anyway. Nothing is drained; the run shows the session.
        return { replicas: [await keep(startLegacyReplica({ name: 'legacy', messagesPath: `${options.mount ?? ''}/messages` }))], routeResume: sticky, drain: false, close };
      case 'stateless':
        return { replicas: [await keep(startStatelessReplica({ name: 'a' })), await keep(startStatelessReplica({ name: 'b' }))], routeResume: sticky, drain: true, close };
    }
  } catch (error) {
    await close();
    throw error;
  }
}
