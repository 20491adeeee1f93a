import { createHarStreamReader, type Exchange, type HarStreamResult } from '../../core/index';

/** What a read reports as it goes. */
export interface ReadHandlers {
  progress(read: number, total: number): void;
  /** The exchanges of the entries read since the last call, in file order. */
  exchanges(exchanges: Exchange[]): void;
}

/** Exchanges are handed over in batches of about this much body (one message each, off the worker). */
const BATCH_BODY_CHARS = 1024 * 1024;
/** At most this many exchanges wait for a batch: a file of small entries still moves along. */
const MAX_BATCH_EXCHANGES = 2_000;

/**
 * Reads a HAR file as a stream, entry by entry (the core's streaming reader on `Blob.stream()`):
 * the file is never one string. Runs in the import worker; the panel runs it itself only where
 * it has no worker. `cancelled` is asked between chunks.
 */
export async function readHarBlob(file: Blob, handlers: ReadHandlers, cancelled: () => boolean = () => false): Promise<HarStreamResult | undefined> {
  let batch: Exchange[] = [];
  let batchChars = 0;
  const flush = () => {
    if (batch.length === 0) return;
    handlers.exchanges(batch);
    batch = [];
    batchChars = 0;
  };
  const reader = createHarStreamReader((exchange) => {
    batch.push(exchange);
    for (const chunk of exchange.chunks) batchChars += chunk.data.length;
    if (batchChars >= BATCH_BODY_CHARS || batch.length >= MAX_BATCH_EXCHANGES) flush();
  });
  const stream = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      if (cancelled()) return undefined;
      reader.push(value);
      handlers.progress(reader.bytes, file.size);
      if (reader.failure !== undefined) break;
    }
  } finally {
    stream.releaseLock();
  }
  const result = reader.finish();
  flush();
  return result;
}
