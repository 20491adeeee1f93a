import type { EventTable, SessionReport } from '../../core/index';
import type { CaptureSource } from './capture-source';
import type { Requests } from './requests';

/** Methods offered in the picker at most (a hostile page could invent thousands). */
export const MAX_METHODS = 200;

/** Methods seen per events table, and how far it was read: a live refresh reads only new events. */
const methodCache = new WeakMap<EventTable, { read: number; methods: Set<string> }>();

function eventMethods(events: EventTable): ReadonlySet<string> {
  let entry = methodCache.get(events);
  if (!entry) methodCache.set(events, (entry = { read: 0, methods: new Set() }));
  for (; entry.read < events.length && entry.methods.size < MAX_METHODS; entry.read++) {
    const method = events.methodAt(entry.read);
    if (method !== undefined) entry.methods.add(method);
  }
  return entry.methods;
}

/**
 * Every method seen in a session, sorted: those its events carry (notifications, the server's
 * requests) and those its requests sent (`initialize`, `tools/call`), whose results carry none.
 */
export function sessionMethods(session: SessionReport, source: CaptureSource, requests: Requests): string[] {
  const seen = new Set<string>();
  const add = (method: string) => void (seen.size < MAX_METHODS && seen.add(method));
  for (const s of session.streams) {
    for (const m of requests.sent(s.index)) if (m.method !== undefined) add(m.method);
    for (const method of eventMethods(source.events(s.index))) add(method);
  }
  return [...seen].sort();
}
