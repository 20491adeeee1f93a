import type { Transport as SdkTransport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Report, Transport } from '../core/index';
import { createGuardAnalysis } from './analysis';
import { createCallBook, type PendingCall } from './calls';
import { errorReply, ResumptionBoundaryError, type ResumptionBoundary, type ThrowReason } from './errors';
import type { Fetch } from './exchange-info';
import { settingsOf, type GuardOptions } from './options';
import { createToolHints } from './tool-hints';
import { createStreamWatch, type Refusal } from './watch-fetch';

/** What the guard has done so far, for tests and dashboards. */
export interface GuardStats {
  accepted: number;
  refused: number;
  reissued: number;
  thrown: number;
  /** Events of refused resumes that the client never got. */
  withheldEvents: number;
  /** Replies and progress of abandoned attempts, dropped so the client gets one answer. */
  droppedStale: number;
  /** Bounded memory: calls, tools and analyzed exchanges forgotten at their caps. */
  forgottenCalls: number;
  forgottenTools: number;
  forgottenExchanges: number;
}

/** The guard behind a guarded transport. */
export interface GuardHandle {
  /** The core's report of what this transport exchanged (its current analyzer). */
  report(): Report;
  stats(): GuardStats;
}

/** A transport with the guard in front: the same object to the client, plus `guard`. */
export type Guarded<T> = T & { readonly guard: GuardHandle };

type OnMessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
/** The SDK's fetch-based transports keep the fetch they use in `_fetch` (undefined: the global one). */
type FetchSlot = { _fetch?: Fetch };

/** Messages for the transports the guard passes through, said once each. */
const PASS_THROUGH: Record<'unwatchable' | 'stateless' | 'http+sse', string> = {
  unwatchable: 'this transport does not fetch its streams through a fetch the guard can watch (only the SDK\'s StreamableHTTPClientTransport and SSEClientTransport do): every message passes through unchecked.',
  stateless: 'the server keeps no sessions (no Mcp-Session-Id, or the 2026-07-28 revision), so there is no resumption to verify: every stream passes through.',
  'http+sse': 'the server speaks the legacy HTTP+SSE transport (2024-11-05), which has no resumption to verify: every stream passes through.',
};

/**
 * Puts the guard in front of an SDK client transport, typically a `StreamableHTTPClientTransport`.
 * It watches every exchange the transport fetches, feeds the bytes to the core's analysis as
 * they arrive, and holds each resume back until the core has judged it. A genuine resume is
 * handed over untouched. A broken one never reaches the client: the guard cancels the call
 * (`notifications/cancelled`) and re-issues it with a new request id, or rejects it with a
 * `ResumptionBoundaryError` (see {@link GuardOptions.policy}; wrap the client with `guardClient`
 * to get that type rather than a plain `McpError`).
 *
 * The transport itself is left as it was: the guard is a proxy around it, so `instanceof`,
 * `sessionId` and `terminateSession()` work on the result as on the original.
 */
export function guardTransport<T extends SdkTransport>(transport: T, options: GuardOptions = {}): Guarded<T> {
  const settings = settingsOf(options);
  const analysis = createGuardAnalysis({ appSeqPointers: settings.appSeqPointers });
  const calls = createCallBook();
  const tools = createToolHints();
  const counts = { accepted: 0, refused: 0, reissued: 0, thrown: 0, withheldEvents: 0 };
  const said = new Set<keyof typeof PASS_THROUGH>();
  const passThrough = (reason: keyof typeof PASS_THROUGH): void => {
    if (said.has(reason)) return;
    said.add(reason);
    settings.tell({ type: 'pass-through', reason, message: PASS_THROUGH[reason] });
  };

  let deliver: OnMessage | undefined;
  const target = transport as T & FetchSlot;
  const watchable = '_fetch' in target;
  // Sends through the proxy, so the transport's own fetches are the watched ones.
  const sendOnWire = (message: JSONRPCMessage, sendOptions?: TransportSendOptions): Promise<void> =>
    (Reflect.get(target, 'send') as SdkTransport['send']).call(proxy, message, sendOptions);

  const reject = (call: PendingCall, refusal: Refusal, reason: ThrowReason): void => {
    calls.settle(call);
    const { decision } = refusal;
    const boundary: ResumptionBoundary = { finding: decision.finding, verdict: decision.verdict, resume: decision.resume, stream: decision.stream, requestId: call.id, reissues: call.reissues, reason };
    counts.thrown += 1;
    const error = new ResumptionBoundaryError(boundary);
    settings.tell({ type: 'thrown', error, message: error.message });
    deliver?.(errorReply(boundary));
  };

  const refuse = (refusal: Refusal): void => {
    const { decision } = refusal;
    counts.refused += 1;
    counts.withheldEvents += refusal.withheldEvents;
    settings.tell({
      type: 'refused',
      finding: decision.finding,
      verdict: decision.verdict,
      stream: decision.stream,
      requestIds: refusal.requestIds,
      withheldEvents: refusal.withheldEvents,
      message: `refused the resume from Last-Event-ID ${JSON.stringify(decision.resume.lastEventId)} (${decision.finding.code}): ${decision.finding.message} ${refusal.withheldEvents} replayed event(s) withheld from the client.`,
    });
    for (const wireId of refusal.requestIds) {
      const call = calls.byWireId(wireId);
      if (!call) continue; // already answered
      const reason = `mcp-stream-lens guard: refused a resume (${decision.finding.code})`;
      const cancelled = sendOnWire({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: call.wireId, reason } }).catch(() => undefined);
      const tool = call.request.method === 'tools/call' ? tools.get(String(call.request.params?.name)) : undefined;
      const why = settings.mustThrow(call, tool);
      if (why) {
        // The server hears of it first: an app that closes on the error would abort the cancellation.
        void cancelled.then(() => reject(call, refusal, why));
        continue;
      }
      const again = calls.reissue(call);
      counts.reissued += 1;
      settings.tell({ type: 'reissued', requestId: call.id, as: again.id, attempt: call.reissues, message: `re-issued request ${String(call.id)} as ${String(again.id)} (re-issue ${call.reissues} of at most ${settings.maxReissues}).` });
      sendOnWire(again).catch(() => reject(call, refusal, 'reissue-failed'));
    }
  };

  const watch = createStreamWatch(analysis, {
    unverifiable: settings.unverifiable,
    onTransport(kind: Transport) {
      if (kind === 'stateless' || kind === 'http+sse') passThrough(kind);
    },
    onAccepted(decision) {
      counts.accepted += 1;
      const stream = decision.resume?.stream ?? -1;
      const how = decision.verdict === 'unverifiable' ? 'unverified, by the unverifiable policy "accept"' : decision.verdict;
      settings.tell({ type: 'accepted', verdict: decision.verdict, stream, message: `handed the resume on stream ${stream} to the client (${how}).` });
    },
    onRefused: refuse,
  });
  const watchedFetch = watch.fetch(() => target._fetch ?? globalThis.fetch);
  if (!watchable) passThrough('unwatchable');

  const receive: OnMessage = (message, extra) => {
    const seen = calls.incoming(message);
    if (!seen) return;
    if (seen.call?.request.method === 'tools/list' && 'result' in seen.message) tools.learn(seen.message.result);
    deliver?.(seen.message, extra);
  };

  const send = (message: JSONRPCMessage, sendOptions?: TransportSendOptions): Promise<void> => {
    if ('method' in message && 'id' in message) {
      calls.sent(message as JSONRPCRequest);
      if (sendOptions?.resumptionToken) watch.expectResume(sendOptions.resumptionToken, message.id);
      return sendOnWire(message, sendOptions);
    }
    return sendOnWire(calls.outgoing(message), sendOptions);
  };

  const handle: GuardHandle = {
    report: () => analysis.report(),
    stats: () => ({ ...counts, ...calls.stats(), forgottenTools: tools.forgotten(), forgottenExchanges: analysis.stats().forgottenExchanges }),
  };

  const proxy: Guarded<T> = new Proxy(target, {
    get(object, key, receiver) {
      if (key === 'guard') return handle;
      if (key === 'send') return send;
      if (key === 'onmessage') return deliver && receive;
      if (key === '_fetch' && watchable) return watchedFetch;
      return Reflect.get(object, key, receiver);
    },
    set(object, key, value, receiver) {
      if (key !== 'onmessage') return Reflect.set(object, key, value, receiver);
      deliver = value as OnMessage | undefined;
      return true;
    },
  }) as Guarded<T>;
  return proxy;
}
