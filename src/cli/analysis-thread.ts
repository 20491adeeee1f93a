import { parentPort, Worker } from 'node:worker_threads';
import { createAnalyzer, feed, type AnalysisOptions, type Exchange, type Report } from '../core';
import { analyseHere, type Analyse, type EventIds } from './analysis';

/**
 * The analysis of a large file in a worker thread, so that reading and parsing the HAR (this
 * thread) and analysing its exchanges (the worker) run at once, on two cores. Exchanges go over
 * in batches, cloned (a string's clone is a copy of its bytes); the reader waits while
 * MAX_IN_FLIGHT batches are unanswered, so a fast reader cannot pile a file up in the queue.
 */

/** Files smaller than this are analysed in this thread: starting a worker costs more than it saves. */
const THREAD_BYTES = 16 * 1024 * 1024;
/** A batch is sent once its bodies hold this many characters, or it holds BATCH_EXCHANGES. */
const BATCH_CHARS = 1024 * 1024;
const BATCH_EXCHANGES = 256;
const MAX_IN_FLIGHT = 4;

/** Messages to the worker. */
type ToWorker = { kind: 'start'; options: AnalysisOptions } | { kind: 'exchanges'; exchanges: Exchange[] } | { kind: 'finish' };
/** Messages from the worker: a batch is analysed, or the report, with the id of each event a finding points at. */
type FromWorker = { kind: 'done' } | { kind: 'report'; report: Report; ids: [stream: number, event: number, id: string][] };

/**
 * Analyses files of THREAD_BYTES or more in a worker that runs `entry` (the CLI's entry file,
 * which serves {@link serveAnalysis} when it is not the main thread); smaller files and standard
 * input in this thread. `execArgv` is the worker's Node options (a test passes a TypeScript loader).
 */
export function analyseInThread(entry: URL, execArgv?: string[], threadBytes = THREAD_BYTES): Analyse {
  return (options, bytes) => {
    if (bytes === undefined || bytes < threadBytes) return analyseHere(options, bytes);
    const worker = new Worker(entry, { workerData: ANALYSIS_WORKER, ...(execArgv && { execArgv }) });
    const send = (message: ToWorker) => worker.postMessage(message);
    let batch: Exchange[] = [];
    let chars = 0;
    let inFlight = 0;
    let caughtUp: (() => void) | undefined;
    let failed: Error | undefined;
    let reported: ((message: FromWorker & { kind: 'report' }) => void) | undefined;
    let rejected: ((error: Error) => void) | undefined;
    const fail = (error: Error) => {
      failed = error;
      caughtUp?.();
      rejected?.(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the analysis thread exited (${code})`)));
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'report') return reported?.(message);
      inFlight--;
      if (inFlight < MAX_IN_FLIGHT && caughtUp) {
        const resolve = caughtUp;
        caughtUp = undefined;
        resolve();
      }
    });
    const flush = () => {
      if (batch.length === 0) return;
      send({ kind: 'exchanges', exchanges: batch });
      inFlight++;
      batch = [];
      chars = 0;
    };
    send({ kind: 'start', options });
    return {
      feed(exchange) {
        batch.push(exchange);
        for (const chunk of exchange.chunks) chars += chunk.data.length;
        if (chars >= BATCH_CHARS || batch.length >= BATCH_EXCHANGES) flush();
      },
      backlog() {
        if (failed || inFlight < MAX_IN_FLIGHT) return undefined;
        return new Promise((resolve) => (caughtUp = resolve));
      },
      async finish() {
        flush();
        try {
          const message = await new Promise<FromWorker & { kind: 'report' }>((resolve, reject) => {
            if (failed) return reject(failed);
            reported = resolve;
            rejected = reject;
            send({ kind: 'finish' });
          });
          return { report: message.report, ids: idsOf(message.ids) };
        } finally {
          worker.removeAllListeners('exit');
          void worker.terminate();
        }
      },
      cancel() {
        worker.removeAllListeners('exit');
        void worker.terminate();
      },
    };
  };
}

/** What a worker of the CLI's entry is for. */
export const ANALYSIS_WORKER = 'mcp-stream-lens:analysis';

/** The worker's side: analyses the exchanges it is sent, and answers each batch. */
export function serveAnalysis(): void {
  const port = parentPort!;
  let analyzer: ReturnType<typeof createAnalyzer> | undefined;
  port.on('message', (message: ToWorker) => {
    switch (message.kind) {
      case 'start':
        analyzer = createAnalyzer(message.options);
        return;
      case 'exchanges':
        feed(analyzer!, message.exchanges);
        return port.postMessage({ kind: 'done' } satisfies FromWorker);
      case 'finish': {
        const report = analyzer!.report({ final: true });
        const ids: [number, number, string][] = [];
        for (const session of report.sessions) {
          for (const { stream, event } of session.findings) {
            const id = event === null ? undefined : analyzer!.events(stream).idAt(event);
            if (id !== undefined) ids.push([stream, event!, id]);
          }
        }
        return port.postMessage({ kind: 'report', report, ids } satisfies FromWorker);
      }
    }
  });
}

function idsOf(list: readonly [number, number, string][]): EventIds {
  const ids = new Map<string, string>();
  for (const [stream, event, id] of list) ids.set(`${stream}:${event}`, id);
  return { events: (stream) => ({ idAt: (event) => ids.get(`${stream}:${event}`) }) };
}
