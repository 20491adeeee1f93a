import type { Exchange, HarStreamResult } from '../../core/index';

/**
 * The messages between the panel and its import worker (import-worker.ts). They never leave the
 * panel's own origin, so they are typed here beside the two ends rather than in the page-facing
 * protocol of src/shared/messages.ts.
 */

/** Panel → worker: read this file. */
export interface ImportRequest {
  file: Blob;
}

/** Worker → panel, in this order: progress and exchanges as the file is read, then the verdict. */
export type ImportReply =
  | { kind: 'progress'; read: number; total: number }
  | { kind: 'exchanges'; exchanges: Exchange[] }
  | { kind: 'done'; result: HarStreamResult };
