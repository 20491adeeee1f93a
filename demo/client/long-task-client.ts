import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A bound on every call, so a resume that never ends cannot hang the run. */
export const CALL_TIMEOUT_MS = 30_000;

export interface LongTaskRun {
  /** What the app believed in the end: the result it accepted, or the error it surfaced. */
  belief: { result: CallToolResult } | { error: string };
  /** Every progress notification the app saw, in order, across all attempts. */
  progress: { attempt: number; progress: number; app_seq: unknown }[];
  /** True when the app re-issued the call after the SDK gave up resuming. */
  reissued: boolean;
  /** What the SDK reported through `onerror` (disconnects, failed resumes). */
  errors: string[];
}

/**
 * Runs the real SDK client the way an app would: connect, call `long_task` with `onprogress`
 * (so the SDK sends a progressToken), and let the SDK resume by itself when the stream breaks.
 *
 * The SDK never re-issues a call: when its resume attempts are exhausted it only reports
 * "Maximum reconnection attempts" through `onerror` and leaves the call pending. An app that
 * cares then cancels the call and re-issues it once, which is what this does.
 */
export async function runLongTask(url: string, args: { steps: number; delayMs: number }): Promise<LongTaskRun> {
  const run: LongTaskRun = { belief: { error: 'not run' }, progress: [], reissued: false, errors: [] };
  const client = new Client({ name: 'stream-lens-recorder', version: '0.1.0' });
  let gaveUp: () => void = () => {};
  const resumeAbandoned = new Promise<'gave-up'>((resolve) => (gaveUp = () => resolve('gave-up')));
  client.onerror = (error) => {
    run.errors.push(error.message);
    if (error.message.startsWith('Maximum reconnection attempts')) gaveUp();
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    // 100 ms away is a few tool steps, so a genuine resume really replays events from the log
    // (not only live ones). One attempt, so a refused resume ends in the SDK's "give up"
    // signal instead of a retry loop.
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 400, reconnectionDelayGrowFactor: 2, maxRetries: 1 },
  });
  await client.connect(transport);

  const call = (attempt: number, signal?: AbortSignal) =>
    client.callTool({ name: 'long_task', arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
      signal,
      // The SDK's Progress type omits `_meta`, but the handler gets the params as sent.
      onprogress: (p) => run.progress.push({ attempt, progress: p.progress, app_seq: (p as { _meta?: { app_seq?: unknown } })._meta?.app_seq }),
    }) as Promise<CallToolResult>;

  try {
    const first = new AbortController();
    const outcome = await Promise.race([call(1, first.signal), resumeAbandoned]);
    if (outcome !== 'gave-up') {
      run.belief = { result: outcome };
    } else {
      first.abort(new Error('resume unavailable; re-issuing the call'));
      run.reissued = true;
      run.belief = { result: await call(2) };
    }
  } catch (error) {
    run.belief = { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.close();
  }
  return run;
}
