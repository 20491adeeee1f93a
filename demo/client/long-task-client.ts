import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GuardEvent, GuardOptions } from '../../src/guard/index.js';
import type { ClientKind } from '../scenario-catalog.js';
import { openSession, type McpSession } from './mcp-session.js';

/** A bound on every call, so a resume that never ends cannot hang the run. */
export const CALL_TIMEOUT_MS = 30_000;
/** The first call and one re-issue. */
export const MAX_ATTEMPTS = 2;

export interface LongTaskArgs {
  steps: number;
  delayMs: number;
  /** Names the call across re-issues; a fresh one is made when absent. */
  idempotencyKey?: string;
}

export interface ProgressSeen {
  attempt: number;
  progress: number;
  app_seq: unknown;
}

export interface LongTaskOptions {
  /** The transport to speak (default: Streamable HTTP). */
  client?: ClientKind;
  onProgress?(progress: ProgressSeen): void;
  /** Each SDK error and each abandoned resume, as it happens. */
  onNote?(note: string): void;
  /** Puts `mcp-stream-lens/guard` in front of the transport, with these options. */
  guard?: Omit<GuardOptions, 'onEvent'>;
  /** Each thing the guard did, as it happens. */
  onGuard?(event: GuardEvent): void;
  /** How long a call may take (default {@link CALL_TIMEOUT_MS}); a server that loses a result makes it wait this long. */
  timeoutMs?: number;
  /** The revision `initialize` asks for (default: the SDK's newest). */
  protocolVersion?: string;
}

export interface LongTaskRun {
  /** What the app believed in the end: the result it accepted, or the error it surfaced. */
  belief: { result: CallToolResult } | { error: string };
  /** Every progress notification the app saw, in order, across all attempts. */
  progress: ProgressSeen[];
  /** True when the app re-issued the call after a resume failed. */
  reissued: boolean;
  /** What the SDK reported through `onerror` (disconnects, failed resumes). */
  errors: string[];
  /** Why each abandoned resume was abandoned. */
  abandoned: string[];
  /** What the guard did, when there was one (`guard` option). */
  guardEvents: { type: GuardEvent['type']; message: string }[];
}

/**
 * Runs the real SDK client the way an app would: connect, call `long_task` with `onprogress`
 * (so the SDK sends a progressToken), and let the SDK resume by itself when the stream breaks.
 * Works in Node and in the browser alike: it needs only `fetch`.
 *
 * The SDK never re-issues a call. When a resume delivered nothing (refused, empty, or given up),
 * this does what the field report asks: it abandons the resume and re-issues the call once,
 * with the same idempotency key, on a fresh session. Fresh, because closing the old transport
 * is the only way to stop the SDK resuming it, and because a 404 means that session is gone.
 */
export async function runLongTask(url: string, args: LongTaskArgs, options: LongTaskOptions = {}): Promise<LongTaskRun> {
  const run: LongTaskRun = { belief: { error: 'not run' }, progress: [], reissued: false, errors: [], abandoned: [], guardEvents: [] };
  const callArgs = { ...args, idempotencyKey: args.idempotencyKey ?? globalThis.crypto.randomUUID() };
  const onError = (message: string) => {
    run.errors.push(message);
    options.onNote?.(message);
  };
  // The guard's re-issues count as attempts too: their progress starts again from app_seq 1.
  let attempt = 0;
  const guard = options.guard && {
    ...options.guard,
    onEvent(event: GuardEvent) {
      run.guardEvents.push({ type: event.type, message: event.message });
      if (event.type === 'reissued') attempt += 1;
      options.onGuard?.(event);
    },
  };
  let session: McpSession | undefined;
  try {
    for (let tries = 1; tries <= MAX_ATTEMPTS; tries += 1) {
      attempt += 1;
      session = await openSession(url, options.client ?? 'streamable-http', onError, guard, { protocolVersion: options.protocolVersion });
      const call = session.client.callTool({ name: 'long_task', arguments: { ...callArgs } }, undefined, {
        timeout: options.timeoutMs ?? CALL_TIMEOUT_MS,
        // The SDK's Progress type omits `_meta`, but the handler gets the params as sent.
        onprogress: (p) => {
          const seen = { attempt, progress: p.progress, app_seq: (p as { _meta?: { app_seq?: unknown } })._meta?.app_seq };
          run.progress.push(seen);
          options.onProgress?.(seen);
        },
      }) as Promise<CallToolResult>;
      call.catch(() => undefined); // an abandoned call rejects when its session closes below
      const outcome = await Promise.race([call.then((result) => ({ result })), session.resumeFailed.then((reason) => ({ reason }))]);
      if ('result' in outcome) {
        run.belief = { result: outcome.result };
        break;
      }
      run.abandoned.push(outcome.reason);
      options.onNote?.(`abandoned the resume: ${outcome.reason}`);
      await session.abandon();
      session = undefined;
      if (tries === MAX_ATTEMPTS) run.belief = { error: `the re-issued call failed too: ${outcome.reason}` };
      else run.reissued = true;
    }
  } catch (error) {
    // The error's name says which kind it is (McpError, ResumptionBoundaryError, TypeError).
    run.belief = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    await session?.close();
  }
  return run;
}
