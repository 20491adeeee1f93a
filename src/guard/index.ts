/**
 * `mcp-stream-lens/guard`: a client-side guard for the MCP TypeScript SDK. It refuses a
 * synthesized resume and re-issues the call, or throws, as the field report's rule says.
 *
 *   const client = guardClient(new Client({ name: 'app', version: '1.0.0' }));
 *   await client.connect(guardTransport(new StreamableHTTPClientTransport(url)));
 */
export { guardTransport, type GuardHandle, type GuardStats, type Guarded } from './guard-transport';
export { guardClient, ResumptionBoundaryError, RESUMPTION_BOUNDARY_CODE, type ResumptionBoundary, type ThrowReason } from './errors';
export type { GuardEvent, GuardOptions, GuardPolicy, GuardedCall } from './options';
export type { UnverifiablePolicy } from './decision';
export type { ToolHint } from './tool-hints';
export type { Finding, FindingCode, FindingEvidence, Report, ResumeReport, StreamReport, Verdict } from '../core/index';
