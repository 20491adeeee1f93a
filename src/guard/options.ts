import type { Finding, StreamReport, Verdict } from '../core/index';
import type { PendingCall } from './calls';
import type { UnverifiablePolicy } from './decision';
import type { ResumptionBoundaryError, ThrowReason } from './errors';
import type { RequestId } from './exchange-info';
import { isIdempotentTool, type ToolHint } from './tool-hints';

/** What the guard does with a call whose resume it refused. */
export type GuardPolicy = 'reissue' | 'throw';

/** A call the guard may re-issue, as the `idempotent` predicate sees it. */
export interface GuardedCall {
  method: string;
  params: Record<string, unknown> | undefined;
  /** For `tools/call`: the tool's annotations, if the client listed tools through this transport. */
  tool: ToolHint | undefined;
}

/** Something the guard did or noticed. Every event has a `message` for people. */
export type GuardEvent =
  | { type: 'pass-through'; reason: 'unwatchable' | 'stateless' | 'http+sse'; message: string }
  | { type: 'accepted'; verdict: Verdict; stream: number; message: string }
  | { type: 'refused'; finding: Finding; verdict: Verdict; stream: StreamReport; requestIds: RequestId[]; withheldEvents: number; message: string }
  | { type: 'reissued'; requestId: RequestId; as: RequestId; attempt: number; message: string }
  | { type: 'thrown'; error: ResumptionBoundaryError; message: string };

export interface GuardOptions {
  /**
   * `reissue` (the default): cancel the call and send it again with a new request id, when it is
   * safe to repeat (see `idempotent`); otherwise, and always under `throw`, reject it with a
   * `ResumptionBoundaryError`.
   */
  policy?: GuardPolicy;
  /**
   * Whether a call is safe to repeat. Default: a `tools/call` whose tool is annotated
   * `readOnlyHint` or `idempotentHint` (as listed through this transport), and the read-only
   * requests (`resources/read`, `prompts/get`, the lists, `completion/complete`, `ping`).
   */
  idempotent?: (call: GuardedCall) => boolean;
  /** Re-issues per call at most (default 1); one more refused resume then throws. */
  maxReissues?: number;
  /**
   * A resume that carries no application sequence and no resume token proves nothing. `accept`
   * (the default) hands it to the client as the SDK would, and says so in an `accepted` event;
   * `refuse` treats it like a broken one. A terminal result right after `Last-Event-ID` is
   * refused either way: the core finds it unproven.
   */
  unverifiable?: UnverifiablePolicy;
  /** Extra application-sequence locations (JSON pointers), as for the core's analysis. */
  appSeqPointers?: readonly string[];
  /** Hears every event. Default: pass-through notices and refusals go to `console.warn`. */
  onEvent?: (event: GuardEvent) => void;
}

/** Requests that only read, so repeating them is harmless. */
const READS = new Set(['ping', 'tools/list', 'prompts/list', 'prompts/get', 'resources/list', 'resources/templates/list', 'resources/read', 'completion/complete']);

export interface Settings {
  policy: GuardPolicy;
  maxReissues: number;
  unverifiable: UnverifiablePolicy;
  appSeqPointers: readonly string[];
  tell(event: GuardEvent): void;
  /** Why `call` must throw instead of being re-issued, or undefined when it may be re-issued. */
  mustThrow(call: PendingCall, tool: ToolHint | undefined): ThrowReason | undefined;
}

export function settingsOf(options: GuardOptions): Settings {
  const policy = options.policy ?? 'reissue';
  const maxReissues = options.maxReissues ?? 1;
  if (policy !== 'reissue' && policy !== 'throw') throw new TypeError(`guard: policy must be 'reissue' or 'throw', not ${String(policy)}`);
  if (!Number.isInteger(maxReissues) || maxReissues < 0) throw new TypeError(`guard: maxReissues must be an integer >= 0, not ${String(maxReissues)}`);
  const idempotent = options.idempotent ?? defaultIdempotent;
  const onEvent = options.onEvent ?? warnOnNotable;
  return {
    policy,
    maxReissues,
    unverifiable: options.unverifiable ?? 'accept',
    appSeqPointers: options.appSeqPointers ?? [],
    // The guard acts while the client reads a stream: a listener that throws must not break it.
    tell(event) {
      try {
        onEvent(event);
      } catch (error) {
        console.error('mcp-stream-lens guard: onEvent threw', error);
      }
    },
    mustThrow(call, tool) {
      if (policy === 'throw') return 'policy';
      const { method, params } = call.request;
      if (!idempotent({ method, params: params as Record<string, unknown> | undefined, tool })) return 'not-idempotent';
      if (call.reissues >= maxReissues) return 'reissue-limit';
      return undefined;
    },
  };
}

function defaultIdempotent(call: GuardedCall): boolean {
  return call.method === 'tools/call' ? isIdempotentTool(call.tool) : READS.has(call.method);
}

function warnOnNotable(event: GuardEvent): void {
  if (event.type === 'pass-through' || event.type === 'refused') console.warn(`mcp-stream-lens guard: ${event.message}`);
}
