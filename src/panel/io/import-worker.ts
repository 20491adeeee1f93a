// The panel's import worker: reads a HAR off the panel's main thread and posts its exchanges
// back as they are read (import-messages.ts has the protocol).
import type { ImportReply, ImportRequest } from './import-messages';
import { readHarBlob } from './read-har-blob';

const scope = self as unknown as { postMessage(reply: ImportReply): void; onmessage: ((event: MessageEvent<ImportRequest>) => void) | null };

scope.onmessage = (event) => {
  void readHarBlob(event.data.file, {
    progress: (read, total) => scope.postMessage({ kind: 'progress', read, total }),
    exchanges: (exchanges) => scope.postMessage({ kind: 'exchanges', exchanges }),
  }).then(
    (result) => scope.postMessage({ kind: 'done', result: result! }),
    (error: unknown) => scope.postMessage({ kind: 'done', result: { ok: false, reason: `it could not be read (${error instanceof Error ? error.message : String(error)})` } }),
  );
};
