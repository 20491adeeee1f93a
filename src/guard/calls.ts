import type { JSONRPCMessage, JSONRPCRequest, ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import type { RequestId } from './exchange-info';

/** Requests awaiting a response that the guard tracks; past this the oldest is forgotten (and counted). */
export const MAX_PENDING_CALLS = 4_096;

/** A request the client sent and has no response to yet. */
export interface PendingCall {
  /** The id the client's protocol layer knows the call by. */
  readonly id: RequestId;
  /** The request as the client sent it. */
  readonly request: JSONRPCRequest;
  /** The id on the wire now: `id` until the guard re-issues the call. */
  wireId: RequestId;
  /** The progress token on the wire now; undefined when the client asked for no progress. */
  wireToken: ProgressToken | undefined;
  /** How many times the guard has re-issued it. */
  reissues: number;
}

/**
 * The calls in flight, and the renaming a re-issue needs. A re-issued call goes out with a new id
 * and progress token; its replies are renamed back before the client sees them, so to the
 * client it is still its first call. Whatever still arrives for an abandoned attempt is dropped.
 */
export interface CallBook {
  /** Notes a request the client sends. */
  sent(request: JSONRPCRequest): void;
  /** A message the client sends, renamed for the wire (a cancellation of a re-issued call). */
  outgoing(message: JSONRPCMessage): JSONRPCMessage;
  /** A message from the server as the client must see it, or undefined to drop it. */
  incoming(message: JSONRPCMessage): { message: JSONRPCMessage; call: PendingCall | undefined } | undefined;
  /** The pending call that has `wireId` on the wire now. */
  byWireId(wireId: RequestId): PendingCall | undefined;
  /** Gives `call` a new wire id and token and returns the request to send. */
  reissue(call: PendingCall): JSONRPCRequest;
  /** Forgets a call that the guard answered itself. */
  settle(call: PendingCall): void;
  stats(): { forgottenCalls: number; droppedStale: number };
}

export function createCallBook(): CallBook {
  const byId = new Map<RequestId, PendingCall>();
  const byWire = new Map<RequestId, PendingCall>();
  /** Progress tokens on the wire: the current one of each call, and those of abandoned attempts. */
  const tokens = new Map<ProgressToken, { call: PendingCall; current: boolean }>();
  const retired = new Map<PendingCall, ProgressToken[]>();
  let forgottenCalls = 0;
  let droppedStale = 0;

  const settle = (call: PendingCall): void => {
    byId.delete(call.id);
    byWire.delete(call.wireId);
    if (call.wireToken !== undefined) tokens.delete(call.wireToken);
    for (const token of retired.get(call) ?? []) tokens.delete(token);
    retired.delete(call);
  };

  return {
    sent(request) {
      const token = request.params?._meta?.progressToken;
      const call: PendingCall = { id: request.id, request, wireId: request.id, wireToken: token, reissues: 0 };
      const previous = byId.get(call.id);
      if (previous) settle(previous);
      byId.set(call.id, call);
      byWire.set(call.wireId, call);
      if (token !== undefined) tokens.set(token, { call, current: true });
      if (byId.size > MAX_PENDING_CALLS) {
        settle(byId.values().next().value!);
        forgottenCalls += 1;
      }
    },
    outgoing(message) {
      if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return message;
      const call = byId.get(message.params?.requestId as RequestId);
      if (!call) return message;
      settle(call);
      return call.wireId === call.id ? message : { ...message, params: { ...message.params, requestId: call.wireId } };
    },
    incoming(message) {
      if ('id' in message && ('result' in message || 'error' in message)) {
        const id = message.id as RequestId;
        const call = byWire.get(id);
        if (!call) {
          // A reply to an attempt the guard abandoned: the client must not get two answers.
          const abandoned = byId.get(id);
          if (abandoned && abandoned.wireId !== id) {
            droppedStale += 1;
            return undefined;
          }
          return { message, call: undefined };
        }
        settle(call);
        return { message: call.wireId === call.id ? message : { ...message, id: call.id }, call };
      }
      if ('method' in message && message.method === 'notifications/progress' && !('id' in message)) {
        const token = message.params?.progressToken as ProgressToken | undefined;
        const entry = token === undefined ? undefined : tokens.get(token);
        if (!entry) return { message, call: undefined };
        if (!entry.current) {
          droppedStale += 1;
          return undefined;
        }
        const original = entry.call.request.params?._meta?.progressToken;
        if (original === token) return { message, call: entry.call };
        return { message: { ...message, params: { ...message.params, progressToken: original } } as JSONRPCMessage, call: entry.call };
      }
      return { message, call: undefined };
    },
    byWireId: (wireId) => byWire.get(wireId),
    reissue(call) {
      call.reissues += 1;
      byWire.delete(call.wireId);
      call.wireId = `${String(call.id)}/reissue-${call.reissues}`;
      byWire.set(call.wireId, call);
      const params = { ...call.request.params };
      if (call.wireToken !== undefined) {
        const list = retired.get(call) ?? [];
        list.push(call.wireToken);
        retired.set(call, list);
        tokens.set(call.wireToken, { call, current: false });
        call.wireToken = call.wireId;
        tokens.set(call.wireToken, { call, current: true });
        params._meta = { ...params._meta, progressToken: call.wireToken };
      }
      return { ...call.request, id: call.wireId, params };
    },
    settle,
    stats: () => ({ forgottenCalls, droppedStale }),
  };
}
