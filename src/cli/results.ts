import type { Report } from '../core';
import type { EventIds } from './analysis';

/** One input the CLI analysed: its report, and what the reader left out. */
export interface Checked {
  path: string;
  report: Report;
  /** For the text report, which names events by their ids. */
  ids: EventIds;
  /** HAR entries the reader could not take (each is counted, never dropped silently). */
  skippedEntries: number;
  /** What the reader noticed while reading: fields left out, bodies not found. */
  problems: string[];
  /** The line each HAR entry starts on, when the format needs it (SARIF regions). */
  entryLines?: number[];
}

/** One input the CLI could not read, with why in one line. */
export interface Unread {
  path: string;
  error: string;
}

export type FileResult = Checked | Unread;

export const isChecked = (result: FileResult): result is Checked => 'report' in result;

/** Totals over every input, as the JSON output's `summary` gives them. */
export type Totals = Report['summary'] & {
  files: number;
  /** Inputs that could not be read (exit 2). */
  unreadable: number;
};

export function totals(results: readonly FileResult[]): Totals {
  const sum: Totals = { files: results.length, unreadable: 0, sessions: 0, streams: 0, events: 0, errors: 0, warnings: 0, ignoredExchanges: 0 };
  for (const result of results) {
    if (!isChecked(result)) {
      sum.unreadable++;
      continue;
    }
    const { summary } = result.report;
    sum.sessions += summary.sessions;
    sum.streams += summary.streams;
    sum.events += summary.events;
    sum.errors += summary.errors;
    sum.warnings += summary.warnings;
    sum.ignoredExchanges += summary.ignoredExchanges;
  }
  return sum;
}

/** `/` separators and no leading `./`: how SARIF, GitHub and JUnit want a file named. */
export const posixPath = (path: string): string => path.replaceAll('\\', '/').replace(/^(\.\/)+/, '');
