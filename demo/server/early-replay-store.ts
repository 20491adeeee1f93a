import { MAX_STORED_EVENTS, type SharedEventStore } from './event-store.js';

/**
 * Wraps an event store with an off-by-`back` replay cursor: a resume from event N replays from
 * N - `back` instead, so the client receives ids and app_seq values it has already seen. Storing
 * is untouched, and the real SDK transport serves the replay; only the cursor is wrong, which is
 * how such a bug looks in a real store.
 */
export function replayingTooEarly(store: SharedEventStore, back: number): SharedEventStore {
  // Every stored id with its stream, in order, to walk back from a cursor. Bounded like the store.
  const order: { id: string; streamId: string }[] = [];
  const position = new Map<string, number>();
  let evicted = 0;

  const earlier = (eventId: string): string => {
    const at = position.get(eventId);
    if (at === undefined) return eventId;
    const streamId = order[at - evicted]!.streamId;
    let cursor = eventId;
    let steps = 0;
    for (let i = at - evicted - 1; i >= 0 && steps < back; i -= 1) {
      const event = order[i]!;
      if (event.streamId !== streamId) continue;
      cursor = event.id;
      steps += 1;
    }
    return cursor;
  };

  return {
    ...store,
    async storeEvent(streamId, message) {
      const id = await store.storeEvent(streamId, message);
      position.set(id, evicted + order.length);
      order.push({ id, streamId });
      if (order.length > MAX_STORED_EVENTS) {
        position.delete(order.shift()!.id);
        evicted += 1;
      }
      return id;
    },
    replayEventsAfter: (lastEventId, options) => store.replayEventsAfter(earlier(lastEventId), options),
  };
}
