import type { AnalysisOptions, Report, RequestInfo, ResponseInfo, StreamEnd } from '../core/index';

/**
 * The messages between the proxy's forwarding thread and its analysis worker. The forwarding
 * thread posts what the recording holds, in order, as batches whose body bytes travel in one
 * transferred buffer; the worker acknowledges each batch (flow control) and answers queries in
 * the order they were posted, so an answer reflects everything recorded before it was asked.
 */

/** What the worker is started with (`workerData`). */
export interface AnalysisInit {
  options: AnalysisOptions;
}

/** One step of the recording, as the worker applies it to its analyzer. */
export type AnalysisOp =
  | { op: 'open'; stream: number; request: RequestInfo }
  | { op: 'respond'; stream: number; response: ResponseInfo }
  /** Body bytes at `[offset, offset + length)` of the batch's buffer. */
  | { op: 'chunk'; stream: number; time: number; offset: number; length: number }
  | { op: 'end'; stream: number; end: StreamEnd };

export type AnalysisQuery =
  | { ask: 'report'; final: boolean }
  /** What to print live since the last `live` query (see cli/live-findings.ts). */
  | { ask: 'live' }
  /** The final report as `check` prints it for `path`. */
  | { ask: 'final-text'; path: string };

/** The counts the status line shows, as the live analysis has them. */
export interface LiveCounts {
  sessions: number;
  streams: number;
  events: number;
  /** Findings printed live (those judged only at the end are not counted). */
  errors: number;
  warnings: number;
}

export interface LiveUpdate {
  /** Lines to print, in order: session headings, resumes and findings first reported now. */
  lines: string[];
  counts: LiveCounts;
}

export interface FinalText {
  text: string;
  errors: number;
  warnings: number;
}

export interface AnswerOf {
  report: Report;
  live: LiveUpdate;
  'final-text': FinalText;
}

export type ToWorker =
  /** `bytes` holds the batch's body bytes (and may be longer): transferred, and handed back in the ack. */
  | { type: 'batch'; ops: AnalysisOp[]; bytes: ArrayBuffer }
  | { type: 'query'; id: number; query: AnalysisQuery };

export type FromWorker =
  /** A batch is applied; its buffer comes back for the next batch. */
  | { type: 'ack'; bytes: ArrayBuffer }
  | { type: 'answer'; id: number; value: AnswerOf[keyof AnswerOf] }
  | { type: 'failed'; id: number; error: string };
