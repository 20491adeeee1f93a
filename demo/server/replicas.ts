import type { SharedEventStore } from './event-store.js';
import { startHonoReplica } from './hono-replica.js';
import { startMcpLiteReplica } from './mcp-lite-replica.js';
import { startReplica, type Replica } from './replica.js';

/** The MCP server implementations a scenario can put behind its load balancer. */
export type ServerKind = 'sdk' | 'hono' | 'mcp-lite';

export const SERVER_KINDS: readonly ServerKind[] = ['sdk', 'hono', 'mcp-lite'];

/**
 * Starts one stateful, resumable replica of `kind`. The SDK and Hono replicas share `eventStore`
 * (a durable shared log); mcp-lite keeps its replay buffer in its own session adapter, so only
 * the replica that owns a session can replay it (which sticky routing gives).
 */
export function startReplicaOf(kind: ServerKind, options: { name: string; eventStore: SharedEventStore }): Promise<Replica> {
  switch (kind) {
    case 'sdk':
      return startReplica(options);
    case 'hono':
      return startHonoReplica(options);
    case 'mcp-lite':
      return startMcpLiteReplica(options);
  }
}
