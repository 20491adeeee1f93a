import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Upper bound on stored events across all streams; the oldest are evicted first. */
export const MAX_STORED_EVENTS = 10_000;

/** An SDK `EventStore` that also says how many events it had to evict. */
export interface SharedEventStore extends EventStore {
  /** Events evicted because {@link MAX_STORED_EVENTS} was reached. */
  dropped(): number;
}

interface StoredEvent {
  /** Position in the log since creation; survives eviction, unlike an array index. */
  seq: number;
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

/**
 * An in-memory event log, shareable between replicas to model a durable shared log.
 *
 * Ids use the TypeScript SDK's format, `<streamId>_<ms>_<rand>`, so fixtures look like what a
 * real SDK deployment sends. Unlike the SDK's example `InMemoryEventStore`, replay walks the
 * log in insertion order: that example sorts ids as strings, which misorders two events stored
 * in the same millisecond (their order then depends on the random suffix).
 */
export function createEventStore(): SharedEventStore {
  const log: StoredEvent[] = [];
  const byId = new Map<string, StoredEvent>();
  let dropped = 0;
  let nextSeq = 0;
  const at = (seq: number) => log[seq - (log[0]?.seq ?? 0)];

  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${Date.now()}_${Math.random().toString(36).slice(2, 10)}`;
      const event = { seq: nextSeq++, id, streamId, message };
      log.push(event);
      byId.set(id, event);
      if (log.length > MAX_STORED_EVENTS) {
        const evicted = log.shift();
        if (evicted) byId.delete(evicted.id);
        dropped += 1;
      }
      return id;
    },

    async getStreamIdForEventId(eventId) {
      return byId.get(eventId)?.streamId;
    },

    async replayEventsAfter(lastEventId, { send }) {
      const last = byId.get(lastEventId);
      if (!last) return '';
      // Walk the live log rather than a snapshot: `send` awaits, and the tool keeps appending
      // meanwhile. The SDK registers the replay stream only after this returns, so an event
      // appended during the walk and skipped here would reach neither the replay nor the live
      // path. The SDK itself drops live writes of ids this walk already sent.
      for (let seq = last.seq + 1; seq < nextSeq && seq <= last.seq + MAX_STORED_EVENTS; seq += 1) {
        const event = at(seq);
        // Priming events are stored as `{}`; they carry no message to replay.
        if (!event || event.streamId !== last.streamId || !('jsonrpc' in event.message)) continue;
        await send(event.id, event.message);
      }
      return last.streamId;
    },

    dropped: () => dropped,
  };
}
