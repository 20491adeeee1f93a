import { header, type Transport } from '../core/index';
import type { GuardAnalysis, Watched } from './analysis';
import { decideResume, type ResumeDecision, type UnverifiablePolicy } from './decision';
import { now, requestIdsOf, requestInfo, responseInfo, type Fetch, type RequestId } from './exchange-info';

/**
 * Bytes of a resume held back while the core cannot decide yet (only priming events and
 * keep-alives so far). Past this the guard decides with what it has, as if the stream had ended.
 */
export const MAX_HELD_BYTES = 1024 * 1024;
/** Resumes announced by the SDK's `resumptionToken` and not yet made. */
const MAX_EXPECTED_RESUMES = 64;

/** A resume the core refused: the guard's transport acts on the calls it was answering. */
export interface Refusal {
  decision: Extract<ResumeDecision, { kind: 'refuse' }>;
  /** The requests of the chain's first stream: the calls this resume was answering. */
  requestIds: RequestId[];
  /** Complete events the resume delivered that the client never got. */
  withheldEvents: number;
}

export interface WatchHooks {
  unverifiable: UnverifiablePolicy;
  /** Every session transport the core names, as exchanges get their response. */
  onTransport(transport: Transport): void;
  onAccepted(decision: Extract<ResumeDecision, { kind: 'accept' }>): void;
  onRefused(refusal: Refusal): void;
}

export interface StreamWatch {
  /** `base()` (looked up on every call) with every exchange fed to the core as it arrives. */
  fetch(base: () => Fetch): Fetch;
  /** Ties request `id` to the resume the SDK will make from `lastEventId` (its resumptionToken). */
  expectResume(lastEventId: string, id: RequestId): void;
}

/** Sessions whose transport has no resumption to check: their resumes pass straight through. */
const UNGUARDED = new Set<Transport>(['stateless', 'http+sse']);

/**
 * Watches the exchanges a client transport makes through `fetch`: each one is fed to the core
 * (open, respond, chunk, end) as the client receives it. A resume (`GET` + `Last-Event-ID`) that
 * the server answers with an event stream is held back from the client until the core has judged
 * it (see {@link decideResume}): then it is handed over whole and streams on untouched, or it is
 * withheld and parked, and the hooks act on the call.
 */
export function createStreamWatch(analysis: GuardAnalysis, hooks: WatchHooks): StreamWatch {
  const expected = new Map<string, RequestId[]>();
  // Request ids by stream index, per analyzer: a decision names its chain's first stream by index.
  const requestsOfIndex = new WeakMap<object, Map<number, RequestId[]>>();

  const decide = (at: Watched, final: boolean): ResumeDecision =>
    decideResume(analysis.report(at), at.index, { unverifiable: hooks.unverifiable, final });

  const act = (at: Watched, decision: Exclude<ResumeDecision, { kind: 'wait' }>): void => {
    if (decision.kind === 'accept') return hooks.onAccepted(decision);
    const requestIds = [...(requestsOfIndex.get(at.analyzer)?.get(decision.root) ?? [])];
    hooks.onRefused({ decision, requestIds, withheldEvents: at.analyzer.events(at.index).length });
  };

  const fetchThrough = (base: () => Fetch): Fetch => async (input, init) => {
    const info = requestInfo(input, init);
    const lastEventId = info.method === 'GET' ? header(info.headers, 'last-event-id') ?? null : null;
    const at = analysis.open(info, lastEventId);
    const ids = info.method === 'POST' ? requestIdsOf(info.body) : lastEventId !== null ? take(expected, lastEventId) : [];
    if (ids.length > 0) {
      let byIndex = requestsOfIndex.get(at.analyzer);
      if (!byIndex) requestsOfIndex.set(at.analyzer, (byIndex = new Map()));
      byIndex.set(at.index, ids);
    }
    let response: Response;
    try {
      response = await base()(input, init);
    } catch (error) {
      analysis.end(at, { state: init?.signal?.aborted ? 'cancelled' : 'reset', time: now(), error: String(error) });
      throw error;
    }
    analysis.respond(at, responseInfo(response));
    const transport = analysis.transportOf(at);
    if (transport !== undefined) hooks.onTransport(transport);
    if (!response.body || response.status < 200) {
      // An opaque redirect (status 0) has a body nobody may read; a 202 has none.
      analysis.end(at, { state: 'complete', time: now(), ...(response.body && { bodyAbsent: true as const }) });
      return response;
    }
    const sse = response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') ?? false;
    const hold = lastEventId !== null && response.ok && sse && !(transport !== undefined && UNGUARDED.has(transport));
    const body = watchBody(response.body, at, hold, init?.signal ?? undefined);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /**
   * The client's view of a body: every chunk goes to the core first. A held one is queued until
   * the core decides; a refused one is parked, open and silent, until the client aborts it, so
   * the SDK neither sees its events nor reconnects to fetch them again.
   */
  function watchBody(source: ReadableStream<Uint8Array>, at: Watched, hold: boolean, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
    const reader = source.getReader();
    let held: Uint8Array[] | undefined = hold ? [] : undefined;
    let heldBytes = 0;
    let ended = false;
    let parked = false;
    if (hold) analysis.hold(1);
    const end = (state: 'complete' | 'reset' | 'cancelled', error?: unknown): void => {
      if (ended) return;
      ended = true;
      analysis.end(at, { state, time: now(), ...(error !== undefined && { error: String(error) }) });
    };
    /** Acts on the core's decision for a held stream: whether it was handed over, parked or still held. */
    const settle = (controller: ReadableStreamDefaultController<Uint8Array>, final: boolean): 'held' | 'handed' | 'parked' => {
      const decision = decide(at, final);
      if (decision.kind === 'wait') return 'held';
      const queued = held!;
      held = undefined;
      analysis.hold(-1);
      if (decision.kind === 'accept') {
        for (const chunk of queued) controller.enqueue(chunk);
        act(at, decision);
        return 'handed';
      }
      reader.cancel(REFUSED).catch(() => undefined);
      end('cancelled', REFUSED);
      parked = true;
      park(controller, signal);
      act(at, decision);
      return 'parked';
    };

    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        // A parked stream is pulled again while the client waits for a read: it stays silent.
        while (!parked) {
          let step: ReadableStreamReadResult<Uint8Array>;
          try {
            step = await reader.read();
          } catch (error) {
            end(signal?.aborted ? 'cancelled' : 'reset', error);
            if (held === undefined || settle(controller, true) !== 'parked') controller.error(error);
            return;
          }
          if (step.done) {
            end('complete');
            if (held === undefined || settle(controller, true) !== 'parked') controller.close();
            return;
          }
          analysis.chunk(at, { time: now(), data: step.value });
          if (held === undefined) return controller.enqueue(step.value);
          held.push(step.value);
          heldBytes += step.value.length;
          if (settle(controller, heldBytes > MAX_HELD_BYTES) !== 'held') return;
        }
      },
      cancel(reason) {
        if (held !== undefined) analysis.hold(-1);
        held = undefined;
        end('cancelled', reason);
        return reader.cancel(reason);
      },
      // Read from the source only when the client reads: the client's own pace, no queue here.
    }, { highWaterMark: 0 });
  }

  return {
    fetch: fetchThrough,
    expectResume(lastEventId, id) {
      const ids = expected.get(lastEventId) ?? [];
      expected.delete(lastEventId);
      expected.set(lastEventId, [...ids, id]);
      if (expected.size > MAX_EXPECTED_RESUMES) expected.delete(expected.keys().next().value!);
    },
  };
}

const REFUSED = 'refused by the mcp-stream-lens guard';

/** Leaves the client's read pending until it aborts the exchange (the transport closing). */
function park(controller: ReadableStreamDefaultController<Uint8Array>, signal: AbortSignal | undefined): void {
  if (!signal) return;
  const stop = (): void => controller.error(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
}

function take<K, V>(map: Map<K, V[]>, key: K): V[] {
  const values = map.get(key) ?? [];
  map.delete(key);
  return values;
}
