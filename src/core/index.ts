/**
 * The analysis core: pure TypeScript, no browser or Node APIs. Feed it exchanges, get the report
 * of DESIGN.md section 6. The panel, the CLI and the tests all go through this file.
 */
export { analyze, createAnalyzer, feed, type Analyzer } from './analyzer';
export { isMcpRequest, hasMcpHeader, looksLikeJsonRpc } from './read/detect';
export { header } from './model';
export type { AnalysisOptions, BodyChunk, EndState, Exchange, Header, RequestInfo, ResponseInfo, StreamEnd } from './model';
export { FINDINGS, type FindingInfo } from './rules/findings';
export type { Finding, FindingCode, FindingEvidence, InputFinding, Report, ResumeReport, SessionReport, Severity, StreamReport, Transport, Verdict } from './report';
export type { EventRecord } from './analysis/state';
export { NO_EVENTS, type EventTable } from './store/event-table';
export type { SseEvent } from './read/sse';
export { isJsonPointer } from './read/sequence';
export { readHar, harToExchanges, type HarReadOptions, type HarReadResult } from './har/read';
export { createHarStreamReader, type HarStreamReader, type HarStreamResult } from './har/read-stream';
export { writeHar, DEFAULT_REDACTED_HEADERS, REDACTED, type HarWriteOptions } from './har/write';
export { sessionPseudonyms, pseudonymizeExchanges, pseudonymizeReport, type SessionPseudonyms } from './har/pseudonyms';
export type { Har, HarEntry } from './har/types';
