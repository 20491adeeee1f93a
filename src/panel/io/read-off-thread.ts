import type { HarStreamResult } from '../../core/index';
import type { ImportReply } from './import-messages';
import { readHarBlob, type ReadHandlers } from './read-har-blob';

/** A read under way: its verdict (undefined when cancelled), and how to cancel it. */
export interface FileRead {
  done: Promise<HarStreamResult | undefined>;
  cancel(): void;
}

/**
 * Reads a HAR file in a Worker (import-worker.ts), so parsing it never blocks the panel. Where
 * no worker can start (a test DOM), the same reader runs here, a chunk at a time.
 */
export function readHarOffThread(file: Blob, handlers: ReadHandlers): FileRead {
  let cancelled = false;
  const here = (): Promise<HarStreamResult | undefined> => readHarBlob(file, handlers, () => cancelled);
  let worker: Worker | undefined;
  try {
    worker = typeof Worker === 'function' ? new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module' }) : undefined;
  } catch {
    worker = undefined;
  }
  if (!worker) return { done: here(), cancel: () => void (cancelled = true) };
  const running = worker;
  let replied = false;
  let finish: (result: Promise<HarStreamResult | undefined> | HarStreamResult | undefined) => void = () => undefined;
  const done = new Promise<HarStreamResult | undefined>((resolve) => (finish = resolve));
  const stop = (result: Promise<HarStreamResult | undefined> | HarStreamResult | undefined) => {
    running.terminate();
    finish(result);
  };
  running.onmessage = (event: MessageEvent<ImportReply>) => {
    replied = true;
    const reply = event.data;
    if (reply.kind === 'progress') handlers.progress(reply.read, reply.total);
    else if (reply.kind === 'exchanges') handlers.exchanges(reply.exchanges);
    else stop(reply.result);
  };
  // A worker that never started (a page opened from file://, a policy that forbids it): the
  // same reader runs here instead. One that failed midway has handed over part of the file.
  running.onerror = (event) => stop(replied ? { ok: false, reason: `the import worker failed (${event.message || 'no reason given'})` } : here());
  running.postMessage({ file });
  return {
    done,
    cancel: () => {
      cancelled = true;
      stop(undefined);
    },
  };
}
