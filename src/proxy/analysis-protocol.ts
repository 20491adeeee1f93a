import type { AnalysisOptions, Report, RequestInfo, ResponseInfo, StreamEnd } from '../core/index';

/**
 * The messages between the proxy's forwarding thread and its analysis worker. The forwarding
 * thread posts what the recording holds, in order, as batches; body bytes do not travel in them:
 * the worker reads them from the recording's spool (spool.ts), whose file it shares. It
 * acknowledges each batch (flow control) and answers queries in the order they were posted, so
 * an answer reflects everything recorded before it was asked.
 */

/** What the worker is started with (`workerData`). */
export interface AnalysisInit {
  options: AnalysisOptions;
  /** The spool's file descriptor (this process's, so the worker's too). */
  spool: number;
}

/** One step of the recording, as the worker applies it to its analyzer. */
export type AnalysisOp =
  | { op: 'open'; stream: number; request: RequestInfo }
  | { op: 'respond'; stream: number; response: ResponseInfo }
  /** Body bytes at `[at, at + length)` of the spool. */
  | { op: 'chunk'; stream: number; time: number; at: number; length: number }
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
  /** The chunks of `ops` lie in `[from, to)` of the spool, one after another. */
  | { type: 'batch'; ops: AnalysisOp[]; from: number; to: number }
  | { type: 'query'; id: number; query: AnalysisQuery };

export type FromWorker =
  /** A batch is applied. */
  | { type: 'ack' }
  | { type: 'answer'; id: number; value: AnswerOf[keyof AnswerOf] }
  | { type: 'failed'; id: number; error: string };
