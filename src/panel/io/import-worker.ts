// The panel's import worker: reads and analyses a HAR off the panel's main thread, and posts
// what the panel shows as it goes (import-messages.ts has the protocol).
import { analyseHarBlob } from './analyse-har-blob';
import type { ImportReply, ImportRequest } from './import-messages';
import { createPacing } from './pacing';

const scope = self as unknown as { postMessage(reply: ImportReply, transfer?: Transferable[]): void; onmessage: ((event: MessageEvent<ImportRequest>) => void) | null };

const pacing = createPacing();

scope.onmessage = (event) => {
  const request = event.data;
  if (request.kind === 'taken') return pacing.take();
  const post = (reply: ImportReply, transfer: Transferable[] = []) => scope.postMessage(reply, transfer);
  const peer = { post, pacing, cancelled: () => false };
  analyseHarBlob(request.file, request.options, peer).catch((error: unknown) =>
    post({ kind: 'done', result: { ok: false, reason: `it could not be read (${error instanceof Error ? error.message : String(error)})` } }),
  );
};
