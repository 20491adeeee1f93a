/** Sessions the table tracks at most; the oldest is forgotten first. */
export const MAX_TRACKED_SESSIONS = 256;

/** The tool call a session has in flight, as a scripted replica needs it to fake a result. */
export interface ToolCall {
  requestId: string | number;
  progressToken?: string | number;
  /** `arguments.idempotencyKey`: the same for a call and its re-issues. */
  idempotencyKey?: string;
}

/**
 * What the load balancer knows about sessions: which replica owns each one (sticky routing)
 * and the last tool call the client sent on it.
 *
 * The scripted bad replica reads this table too. That models a replica that can see shared
 * session metadata (who is calling what) but not the event buffer, which is exactly the
 * situation in which a replica is tempted to synthesize a plausible ending.
 */
export interface SessionTable {
  owner(sessionId: string): string | undefined;
  setOwner(sessionId: string, upstream: string): void;
  lastToolCall(sessionId: string): ToolCall | undefined;
  noteToolCall(sessionId: string, call: ToolCall): void;
}

export function createSessionTable(): SessionTable {
  const owners = new Map<string, string>();
  const calls = new Map<string, ToolCall>();

  function remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key); // re-insert so that Map order is recency order
    map.set(key, value);
    const oldest = map.keys().next();
    if (map.size > MAX_TRACKED_SESSIONS && !oldest.done) map.delete(oldest.value);
  }

  return {
    owner: (sessionId) => owners.get(sessionId),
    setOwner: (sessionId, upstream) => remember(owners, sessionId, upstream),
    lastToolCall: (sessionId) => calls.get(sessionId),
    noteToolCall: (sessionId, call) => remember(calls, sessionId, call),
  };
}

/** Reads a tools/call request (id and progressToken) out of a JSON-RPC POST body, if it is one. */
export function parseToolCall(body: Buffer): ToolCall | undefined {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, id, params } = message as {
    method?: unknown;
    id?: unknown;
    params?: { _meta?: { progressToken?: unknown }; arguments?: { idempotencyKey?: unknown } };
  };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const token = params?._meta?.progressToken;
  const key = params?.arguments?.idempotencyKey;
  return {
    requestId: id,
    progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
    ...(typeof key === 'string' && { idempotencyKey: key }),
  };
}
