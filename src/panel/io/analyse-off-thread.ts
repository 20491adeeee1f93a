import type { AnalysisOptions } from '../../core/index';
import { analyseHarBlob } from './analyse-har-blob';
import type { ImportReply, ImportRequest } from './import-messages';
import { createPacing } from './pacing';

/** An analysis under way: settles once its verdict is handed over, or once cancelled. */
export interface AnalysisRun {
  done: Promise<void>;
  /** Stops it: nothing more is handed over. */
  cancel(): void;
  /** The panel has taken in the last analysis handed over, and painted it: the next may come. */
  taken(): void;
}

const failed = (why: string): ImportReply => ({ kind: 'done', result: { ok: false, reason: why } });
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Reads and analyses a HAR file in a Worker (import-worker.ts), so neither blocks the panel, and
 * hands each reply to `onReply` as it comes. Where no worker can start (a test DOM, a page opened
 * from file://), the same code runs here, a chunk of the file at a time.
 */
export function analyseOffThread(file: Blob, options: AnalysisOptions, onReply: (reply: ImportReply) => void): AnalysisRun {
  let cancelled = false;
  const pacing = createPacing();
  const here = (): Promise<void> =>
    analyseHarBlob(file, options, {
      post: (reply) => void (cancelled || onReply(reply)),
      pacing,
      cancelled: () => cancelled,
    }).catch((error: unknown) => {
      if (!cancelled) onReply(failed(`it could not be read (${messageOf(error)})`));
    });
  let worker: Worker | undefined;
  try {
    worker = typeof Worker === 'function' ? new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module' }) : undefined;
  } catch {
    worker = undefined;
  }
  if (!worker) {
    const cancel = () => {
      cancelled = true;
      // Wakes an analysis that waits for the panel: it then sees it was cancelled.
      pacing.take();
    };
    return { done: here(), cancel, taken: () => pacing.take() };
  }
  const running = worker;
  let replied = false;
  let finish: (settled: Promise<void> | void) => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const stop = (settled?: Promise<void>) => {
    running.terminate();
    finish(settled);
  };
  running.onmessage = (event: MessageEvent<ImportReply>) => {
    if (cancelled) return;
    replied = true;
    onReply(event.data);
    if (event.data.kind === 'done') stop();
  };
  // A worker that never started (a policy that forbids it, a module worker the browser cannot
  // load): the same analysis runs here instead. One that failed midway has handed over part of it.
  running.onerror = (event) => {
    if (cancelled) return;
    if (replied) {
      onReply(failed(`the import worker failed (${event.message || 'no reason given'})`));
      stop();
    } else stop(here());
  };
  const send = (request: ImportRequest) => running.postMessage(request);
  send({ kind: 'start', file, options });
  return {
    done,
    cancel: () => {
      cancelled = true;
      stop();
    },
    taken: () => {
      if (!cancelled) send({ kind: 'taken' });
    },
  };
}
