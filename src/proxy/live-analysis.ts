import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AnalysisOptions } from '../core/index';
import { createBurstGauge, type BurstGauge } from './burst-gauge';
import type { AnalysisInit, AnalysisOp, AnalysisQuery, AnswerOf, FromWorker, ToWorker } from './analysis-protocol';
import { MAX_ANALYSIS_BATCH_BYTES, MAX_ANALYSIS_BATCHES_IN_FLIGHT } from './caps';
import type { Recording, RecordingEvent } from './recording';
import type { Spool } from './spool';

/**
 * The proxy's live analysis, in a worker thread: what the recording records is queued here and
 * posted in batches, so forwarding a chunk never waits on analysing it. Every answer comes after
 * everything recorded before it was asked has been analysed.
 *
 * While a burst passes through the proxy, the analysis waits (see {@link AnalysisPacing}):
 * analysing costs several times what forwarding does per byte, and beside a burst, on a machine of
 * few cores, it took the cores the burst's own sender and reader needed, whatever its priority.
 * A burst is analysed once it is over, a moment later; a flood is analysed as it goes once it has
 * been behind for {@link MAX_ANALYSIS_WAIT_MS}.
 */
export interface LiveAnalysis {
  /** The report so far (`final`: the recording is over, as `check` reports a file). */
  report(options?: { final?: boolean }): Promise<AnswerOf['report']>;
  /** What to print live since the last call: new findings and verdicts, and the status counts. */
  live(): Promise<AnswerOf['live']>;
  /** The final report as `check` prints it for `path`, and its error and warning counts. */
  finalText(path: string): Promise<AnswerOf['final-text']>;
  /** Ends the worker; later queries reject. */
  close(): Promise<void>;
}

/** When the analysis is handed what was recorded. */
export interface AnalysisPacing {
  /** How fast recorded bytes come: marked when the analysis falls behind, looked at while it waits. */
  gauge: BurstGauge;
  /** The longest the analysis waits for a burst to pass: how far behind a burst leaves the status line and answers. */
  maxWaitMs: number;
}

/**
 * Recorded bytes per second that make a burst. An agent's event streams stay far below it, even
 * at thousands of events a second; what passes it is a bulk body (a large result, a file), whose
 * analysis can wait until it is through.
 */
export const BURST_BYTES_PER_SECOND = 16 * 1024 * 1024;
/** The longest the analysis waits for a burst to pass. */
export const MAX_ANALYSIS_WAIT_MS = 1_000;
/** How often an analysis that waits looks again. */
const WAIT_STEP_MS = 20;

type Queued = { kind: 'op'; op: AnalysisOp } | { kind: 'query'; id: number; query: AnalysisQuery };

/**
 * The worker's module: beside this one. Run from source (tests, tsx), it is TypeScript, which a
 * worker cannot load by itself, so that worker first registers tsx's loader (a dev dependency).
 */
function startWorker(init: AnalysisInit): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './analysis-worker.ts' : './analysis-worker.js', import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: init });
  // tsx's ESM register API, by its package's exports map (a require would pick its CJS build).
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const api = (require(tsxPackage) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
  const tsx = new URL(api, pathToFileURL(tsxPackage)).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => api.register()).then(() => import(${JSON.stringify(entry.href)}))`;
  return new Worker(boot, { eval: true, workerData: init });
}

/** The recording's chunks are read back from `spool` by the worker. */
export function createLiveAnalysis(
  recording: Recording,
  spool: Spool,
  options: AnalysisOptions,
  pacing: AnalysisPacing = { gauge: createBurstGauge(() => spool.size, BURST_BYTES_PER_SECOND), maxWaitMs: MAX_ANALYSIS_WAIT_MS },
): LiveAnalysis {
  const worker = startWorker({ options, spool: spool.fd });
  const waiting = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let queue: Queued[] = [];
  let head = 0;
  let inFlight = 0;
  let scheduled = false;
  /** When the oldest of what is queued unposted was queued (0: nothing is). */
  let behindSince = 0;
  let nextId = 0;
  let failure: Error | undefined;

  // The worker keeps the process alive only while an answer is awaited.
  const refWhileWaiting = () => (waiting.size > 0 ? worker.ref() : worker.unref());
  refWhileWaiting();
  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of waiting.values()) reject(failure);
    waiting.clear();
    queue = [];
    head = 0;
    refWhileWaiting();
  };
  worker.on('error', (error) => fail(new Error(`the analysis worker failed: ${error.message}`)));
  worker.on('exit', () => fail(new Error('the analysis worker has ended')));
  worker.on('message', (message: FromWorker) => {
    if (message.type === 'ack') {
      inFlight -= 1;
      // A pump already due (or waiting for a burst to pass) posts next.
      return scheduled ? undefined : pump();
    }
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    refWhileWaiting();
    if (message.type === 'answer') waiter?.resolve(message.value as never);
    else waiter?.reject(new Error(`the analysis failed: ${message.error}`));
  });

  /**
   * Posts what is queued, a batch at a time, while fewer than the cap are unacknowledged. The
   * worker reads chunks from the spool's file, so only chunks already written go; what is staged
   * is written for it only when it has nothing else to do, since each write costs the forwarding
   * thread a system call, and the stage fills by itself in a burst.
   */
  function pump(): void {
    scheduled = false;
    if (head < queue.length && waitsForBurst()) return;
    if (inFlight === 0 && head < queue.length) spool.flush();
    while (inFlight < MAX_ANALYSIS_BATCHES_IN_FLIGHT && head < queue.length) {
      const first = queue[head]!;
      if (first.kind === 'query') {
        head += 1;
        post({ type: 'query', id: first.id, query: first.query });
        continue;
      }
      // Ops up to the next query, while their chunks span at most a batch's bytes (a longer chunk goes alone).
      const ops: AnalysisOp[] = [];
      let from = -1;
      let to = -1;
      while (head < queue.length) {
        const item = queue[head]!;
        if (item.kind === 'query') break;
        if (item.op.op === 'chunk') {
          const end = item.op.at + item.op.length;
          // Bytes the spool lost are not analysed: the recording clips their stream there.
          if (spool.failure && end > spool.failure.at) {
            head += 1;
            continue;
          }
          if (end > spool.written || (from >= 0 && end - from > MAX_ANALYSIS_BATCH_BYTES)) break;
          if (from < 0) from = item.op.at;
          to = end;
        }
        ops.push(item.op);
        head += 1;
      }
      if (ops.length === 0) {
        if (head < queue.length && queue[head]!.kind === 'op') break; // a staged chunk: it waits for the write
        continue;
      }
      inFlight += 1;
      post({ type: 'batch', ops, from: Math.max(from, 0), to: Math.max(to, 0) });
    }
    // Drop what was posted, in one cut rather than a shift per item.
    if (head === queue.length) (queue = []), (head = 0), (behindSince = 0);
    else if (head > 4096) (queue = queue.slice(head)), (head = 0);
  }
  /** Whether to post nothing yet, while a burst passes; if so, looks again in a moment. */
  const waitsForBurst = (): boolean => {
    if (performance.now() - behindSince >= pacing.maxWaitMs || !pacing.gauge.burst()) return false;
    scheduled = true;
    // Unref, as the worker is: an answer awaited keeps the process alive, and with it this.
    setTimeout(pump, WAIT_STEP_MS).unref();
    return true;
  };
  const post = (message: ToWorker) => worker.postMessage(message);
  const enqueue = (item: Queued) => {
    if (failure) return;
    if (head === queue.length) {
      // Measured from here, not from whenever the gauge was last looked at: a burst's first
      // chunk, after a quiet hour, is not averaged over the hour.
      behindSince = performance.now();
      pacing.gauge.mark();
    }
    queue.push(item);
    // Everything recorded in one turn of the event loop goes in one batch.
    if (!scheduled) {
      scheduled = true;
      setImmediate(pump);
    }
  };
  const ask = <K extends AnalysisQuery['ask']>(query: Extract<AnalysisQuery, { ask: K }>): Promise<AnswerOf[K]> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    const answer = new Promise<AnswerOf[K]>((resolve, reject) => waiting.set(id, { resolve, reject }));
    refWhileWaiting();
    enqueue({ kind: 'query', id, query });
    return answer;
  };

  const onEvent = (event: RecordingEvent) => {
    const { rec } = event;
    const stream = rec.index;
    const x = rec.exchange;
    switch (event.kind) {
      case 'open': {
        const request = { method: x.method, url: x.url, headers: x.headers, startTime: x.startTime, entry: x.entry, ...(x.body === undefined ? {} : { body: x.body }) };
        return enqueue({ kind: 'op', op: { op: 'open', stream, request } });
      }
      case 'response':
        return enqueue({ kind: 'op', op: { op: 'respond', stream, response: { status: x.status, headers: x.responseHeaders } } });
      case 'chunk':
        return enqueue({ kind: 'op', op: { op: 'chunk', stream, time: event.time, at: event.at, length: event.data.length } });
      case 'end':
        return enqueue({ kind: 'op', op: { op: 'end', stream, end: x.end } });
    }
  };
  const unsubscribe = recording.subscribe(onEvent);

  return {
    report: (opts) => ask({ ask: 'report', final: opts?.final ?? false }),
    live: () => ask({ ask: 'live' }),
    finalText: (path) => ask({ ask: 'final-text', path }),
    async close() {
      unsubscribe();
      await worker.terminate();
    },
  };
}
