import type { Report } from '../../core';
import { isChecked, totals, type FileResult, type Totals } from '../results';

/** One input in the JSON output: its report, or why it could not be read. */
export type CheckedFile =
  | {
      path: string;
      report: Report;
      /** HAR entries the reader could not take. */
      skippedEntries: number;
      /** What the reader left out, one sentence each. */
      problems: string[];
    }
  | { path: string; error: string };

/**
 * What `check --format json` prints: always this one object, for one file or many. The report
 * of the first (or only) file is at the JSON pointer `/files/0/report`. docs/report.md is the
 * contract, and schema/report.schema.json its JSON Schema.
 */
export interface CheckOutput {
  tool: 'mcp-stream-lens';
  /** The version of this envelope; bumped only if a field is renamed or removed (never so far). */
  outputVersion: 1;
  /** The package version that wrote it. */
  toolVersion: string;
  /** In the order the arguments named them (a folder's files sorted by path). */
  files: CheckedFile[];
  summary: Totals;
}

export function checkOutput(results: readonly FileResult[], toolVersion: string): CheckOutput {
  const files = results.map((result): CheckedFile =>
    isChecked(result) ? { path: result.path, report: result.report, skippedEntries: result.skippedEntries, problems: result.problems } : { path: result.path, error: result.error },
  );
  return { tool: 'mcp-stream-lens', outputVersion: 1, toolVersion, files, summary: totals(results) };
}

export const formatJson = (results: readonly FileResult[], toolVersion: string): string => JSON.stringify(checkOutput(results, toolVersion), null, 2);
