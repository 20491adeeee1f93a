import type { AnalysisOptions, Exchange, HarStreamResult, Report } from '../../core/index';
import type { TableSlice } from './table-slice';

/**
 * The messages between the panel and its import worker (import-worker.ts). They never leave the
 * panel's own origin, so they are typed here beside the two ends rather than in the page-facing
 * protocol of src/shared/messages.ts.
 */

/**
 * Panel → worker: read and analyse this file with these options; then, after each analysis, that
 * the panel has taken it in and painted it (the worker analyses no further until then).
 */
export type ImportRequest = { kind: 'start'; file: Blob; options: AnalysisOptions } | { kind: 'taken' };

/**
 * Worker → panel, in this order: progress, exchanges and analyses as the file is read, then the
 * verdict. An `analysis` comes after the exchanges of every stream it names: its slices hold each
 * stream's events since the last one, and its report is the whole file's so far.
 */
export type ImportReply =
  | { kind: 'progress'; read: number; total: number }
  | { kind: 'exchanges'; exchanges: Exchange[] }
  | { kind: 'analysis'; slices: TableSlice[]; report: Report }
  | { kind: 'done'; result: HarStreamResult };

/** How a reply is sent: `transfer` lists the buffers it may move rather than copy. */
export type PostReply = (reply: ImportReply, transfer?: Transferable[]) => void;
