import { createAnalyzer, feed, type AnalysisOptions, type Exchange, type Report } from '../core';

/** Reads back the id of an event a finding points at (the text report names it). */
export interface EventIds {
  events(stream: number): { idAt(event: number): string | undefined };
}

/** What the analysis of one file gave: its report, and the ids its findings point at. */
export interface Analysed {
  report: Report;
  ids: EventIds;
}

/** The analysis of one file, fed exchange by exchange as the file is read. */
export interface FileAnalysis {
  feed(exchange: Exchange): void;
  /** While the analysis is behind the reader, a promise of when it has caught up: the reader waits. */
  backlog(): Promise<void> | undefined;
  /** The file is read: its report. */
  finish(): Promise<Analysed>;
  /** The file cannot be HAR: what was fed is dropped. */
  cancel(): void;
}

/**
 * Starts the analysis of one file of `bytes` (undefined for standard input): in this thread, or
 * in another (see analysis-thread.ts), which run.ts chooses.
 */
export type Analyse = (options: AnalysisOptions, bytes: number | undefined) => FileAnalysis;

/** The analysis in this thread: each exchange is analysed as it is fed. */
export const analyseHere: Analyse = (options) => {
  const analyzer = createAnalyzer(options);
  return {
    feed: (exchange) => feed(analyzer, [exchange]),
    backlog: () => undefined,
    finish: () => Promise.resolve({ report: analyzer.report({ final: true }), ids: analyzer }),
    cancel: () => undefined,
  };
};
