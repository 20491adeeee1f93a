/**
 * `mcp-stream-lens`: the analysis behind the DevTools panel and the CLI, for test suites and
 * tools. Pure: no Node or browser API, so it runs in Node and in bundlers alike.
 *
 *   import { analyzeHar, FINDINGS } from 'mcp-stream-lens';
 *   const { report } = analyzeHar(harText);
 *   for (const f of report.sessions.flatMap((s) => s.findings)) console.log(f.code, FINDINGS[f.code].title);
 *
 * The report's shape is the contract of docs/report.md; `mcp-stream-lens/report.schema.json` is
 * its JSON Schema, and `mcp-stream-lens/playwright` fails a test on a recorded HAR's findings.
 */
export { analyzeHar, HarReadError, type AnalyzeHarOptions, type HarAnalysis } from './analyze-har';
export { analyze, createAnalyzer, feed, type Analyzer } from '../core/analyzer';
export { FINDINGS, type FindingInfo } from '../core/rules/findings';
export { readHar, harToExchanges, type HarReadOptions, type HarReadResult } from '../core/har/read';
export { isJsonPointer } from '../core/read/sequence';
export type { AnalysisOptions, BodyChunk, EndState, Exchange, Header, RequestInfo, ResponseInfo, StreamEnd } from '../core/model';
export type { Finding, FindingCode, FindingEvidence, InputFinding, Report, ResumeReport, SessionReport, Severity, StreamReport, Transport, Verdict } from '../core/report';
export type { EventTable } from '../core/store/event-table';
export type { Har, HarEntry } from '../core/har/types';
