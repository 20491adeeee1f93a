import { createAnalyzer, feed, harToExchanges, readHar, type AnalysisOptions, type HarReadResult, type Report } from '../core';

/** Options for {@link analyzeHar}. */
export interface AnalyzeHarOptions extends Pick<AnalysisOptions, 'appSeqPointers' | 'keepPayloads'> {
  /**
   * Loads a body Playwright stored beside the HAR (`recordHar` with `content: 'attach'`), by the
   * file name the entry gives; undefined when it cannot. Without it such bodies count as not
   * captured. The Playwright helper (`mcp-stream-lens/playwright`) passes one that reads only
   * plain names from the HAR's folder.
   */
  loadFile?: (name: string) => Uint8Array | undefined;
}

/** The input was not a HAR the reader could take at all; `reason` says why in one line. */
export class HarReadError extends Error {
  override readonly name = 'HarReadError';
  constructor(readonly reason: string) {
    super(`mcp-stream-lens: not a readable HAR: ${reason}`);
  }
}

/** What {@link analyzeHar} gives: the report, and what the HAR reader had to leave out. */
export interface HarAnalysis {
  /** The report contract (docs/report.md). */
  report: Report;
  /** HAR entries the reader could not take. */
  skippedEntries: number;
  /** What the reader left out (fields, bodies not found), one sentence each. */
  problems: string[];
}

/**
 * Analyses a HAR file's MCP traffic, as `mcp-stream-lens check` does: pass the file's text, or
 * the parsed object. Throws {@link HarReadError} when the input is not HAR at all.
 *
 * @example
 * const { report } = analyzeHar(await readFile('capture.har', 'utf8'));
 * expect(report.summary.errors).toBe(0);
 */
export function analyzeHar(har: string | object, options: AnalyzeHarOptions = {}): HarAnalysis {
  const read = typeof har === 'string' ? readHar(har, { loadFile: options.loadFile }) : harToExchanges(har, { loadFile: options.loadFile });
  return analysisOf(read, options);
}

/** The analysis of what the HAR reader gave. */
function analysisOf(read: HarReadResult, options: Pick<AnalysisOptions, 'appSeqPointers' | 'keepPayloads'>): HarAnalysis {
  if (!read.ok) throw new HarReadError(read.reason);
  // A report is what is asked for: keep no payload unless the caller wants the events' data.
  const analyzer = createAnalyzer({ appSeqPointers: options.appSeqPointers, keepPayloads: options.keepPayloads ?? false });
  feed(analyzer, read.exchanges);
  return { report: analyzer.report({ final: true }), skippedEntries: read.skippedEntries, problems: read.problems };
}
