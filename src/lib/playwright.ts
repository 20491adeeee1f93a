/**
 * `mcp-stream-lens/playwright`: fail a Playwright (or any Node) test on the MCP findings of a
 * HAR it recorded: `recordHar` on a browser context (written when the context closes), or a
 * HAR from `mcp-stream-lens proxy`.
 *
 *   const context = await browser.newContext({ recordHar: { path: 'mcp.har', content: 'embed' } });
 *   // ... drive the page ...
 *   await context.close();
 *   await expectHarFindings('mcp.har');                          // no error finding allowed
 *   await expectHarFindings('mcp.har', { findings: ['resume-rejected'], failOn: 'info' });
 */
import { createAnalyzer, feed, type FindingCode, type Report, type Severity } from '../core';
import { readHarFile } from '../cli/har-file';
import { HarReadError, type HarAnalysis } from './analyze-har';

export { HarReadError, type HarAnalysis } from './analyze-har';
import { diffFindings, findingsAtLeast, formatDiff, type FindingsDiff } from './findings-diff';

export type { FindingCode, Report, Severity } from '../core';
export type { FindingsDiff, LocatedFinding } from './findings-diff';

/** Options for {@link expectHarFindings}. */
export interface ExpectHarOptions {
  /**
   * The finding codes the test expects, once per occurrence (default none). Findings below
   * `failOn` are not compared.
   */
  findings?: readonly FindingCode[];
  /** The lowest severity compared (default `error`, as the CLI's exit code). */
  failOn?: Severity;
  /** Extra application-sequence JSON pointers, as the CLI's `--app-seq`. */
  appSeqPointers?: readonly string[];
}

/** Thrown when a HAR's findings differ from what the test expects; its message is the diff. */
export class HarFindingsError extends Error {
  override readonly name = 'HarFindingsError';
  constructor(
    message: string,
    /** The whole report, for a test that wants to look further. */
    readonly report: Report,
    /** What differs. */
    readonly diff: FindingsDiff,
  ) {
    super(message);
  }
}

/**
 * Reads the HAR at `file` (bodies Playwright attached beside it included), analyses it, and
 * throws {@link HarFindingsError}, whose message is a readable diff of the findings, unless its
 * findings at `failOn` or worse are exactly `findings`. Resolves to the analysis otherwise.
 * A file that is not a readable HAR rejects with `HarReadError`.
 */
export async function expectHarFindings(file: string, options: ExpectHarOptions = {}): Promise<HarAnalysis> {
  const failOn = options.failOn ?? 'error';
  const analysis = await analyzeHarFile(file, options.appSeqPointers);
  const diff = diffFindings(findingsAtLeast(analysis.report, failOn), options.findings ?? []);
  if (diff.unexpected.length > 0 || diff.missing.length > 0) {
    throw new HarFindingsError(formatDiff(file, analysis.report, diff, failOn), analysis.report, diff);
  }
  return analysis;
}

/** Reads the file as the CLI does, entry by entry, analysing each exchange as it is read. */
async function analyzeHarFile(file: string, appSeqPointers: readonly string[] | undefined): Promise<HarAnalysis> {
  const analyzer = createAnalyzer({ appSeqPointers, keepPayloads: false });
  const read = await readHarFile(file, (exchange) => feed(analyzer, [exchange]), {
    stdin: () => {
      throw new Error('standard input is not read by the library');
    },
  });
  if (!read.ok) throw new HarReadError(read.reason);
  return { report: analyzer.report({ final: true }), skippedEntries: read.skippedEntries, problems: read.problems };
}
