import { McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Finding, FindingEvidence, ResumeReport, StreamReport, Verdict } from '../core/index';
import type { RequestId } from './exchange-info';

/**
 * The JSON-RPC error code of a call the guard refused to complete from a resume. It never goes on
 * the wire: the guard hands it to the client's protocol layer as the call's reply. It lies in
 * JSON-RPC's range for implementation-defined errors, apart from the SDK's own codes.
 */
export const RESUMPTION_BOUNDARY_CODE = -32_090;

/** Why the guard threw rather than re-issued the call. */
export type ThrowReason = 'policy' | 'not-idempotent' | 'reissue-limit' | 'reissue-failed';

/** Everything the guard knew when it refused the resume; plain JSON, as it travels in `data`. */
export interface ResumptionBoundary {
  /** The core's finding that refused the resume (its `code`, `message` and `evidence`). */
  finding: Finding;
  verdict: Verdict;
  resume: ResumeReport;
  /** The resuming stream as the report lists it (url, status, Last-Event-ID). */
  stream: StreamReport;
  /** The id the client knows the call by. */
  requestId: RequestId;
  /** Re-issues already made for this call. */
  reissues: number;
  reason: ThrowReason;
}

/** Marks a reply as the guard's own, so {@link ResumptionBoundaryError.from} can tell it apart. */
const MARK = 'mcp-stream-lens/guard';

const REASONS: Record<ThrowReason, string> = {
  policy: 'the guard policy is "throw"',
  'not-idempotent': 'the call is not known to be idempotent, so it is not re-issued',
  'reissue-limit': 'it was already re-issued as many times as the guard allows',
  'reissue-failed': 'the re-issued call could not be sent',
};

/**
 * A call whose resume the guard refused: the replayed stream broke continuity (or proved
 * nothing, by policy), so its result was withheld. `finding.code` names the rule, and `expected`,
 * `got` and `lastSeen` are the finding's evidence where the core gives it. `code` stays the
 * numeric JSON-RPC code of {@link McpError}.
 */
export class ResumptionBoundaryError extends McpError {
  readonly finding: Finding;
  readonly verdict: Verdict;
  readonly resume: ResumeReport;
  readonly stream: StreamReport;
  readonly requestId: RequestId;
  readonly reissues: number;
  readonly reason: ThrowReason;
  readonly expected: FindingEvidence['expected'];
  readonly got: FindingEvidence['got'];
  readonly lastSeen: FindingEvidence['lastSeen'];

  constructor(boundary: ResumptionBoundary) {
    super(RESUMPTION_BOUNDARY_CODE, messageOf(boundary), { [MARK]: boundary });
    this.name = 'ResumptionBoundaryError';
    this.finding = boundary.finding;
    this.verdict = boundary.verdict;
    this.resume = boundary.resume;
    this.stream = boundary.stream;
    this.requestId = boundary.requestId;
    this.reissues = boundary.reissues;
    this.reason = boundary.reason;
    this.expected = boundary.finding.evidence?.expected;
    this.got = boundary.finding.evidence?.got;
    this.lastSeen = boundary.finding.evidence?.lastSeen;
  }

  /** The guard's refusal inside an error the SDK made of its reply, or undefined for any other error. */
  static from(error: unknown): ResumptionBoundaryError | undefined {
    if (error instanceof ResumptionBoundaryError) return error;
    if (!(error instanceof McpError) || error.code !== RESUMPTION_BOUNDARY_CODE) return undefined;
    const boundary = (error.data as Record<string, unknown> | undefined)?.[MARK] as ResumptionBoundary | undefined;
    return boundary && typeof boundary.finding?.code === 'string' ? new ResumptionBoundaryError(boundary) : undefined;
  }
}

function messageOf(boundary: ResumptionBoundary): string {
  return `the resume of request ${String(boundary.requestId)} was refused (${boundary.finding.code}): ${boundary.finding.message} Not re-issued: ${REASONS[boundary.reason]}.`;
}

/**
 * The JSON-RPC error reply that rejects the client's pending call: the SDK makes an `McpError`
 * of it with the same message and `data`, which {@link ResumptionBoundaryError.from} reads back.
 */
export function errorReply(boundary: ResumptionBoundary): JSONRPCMessage {
  return { jsonrpc: '2.0', id: boundary.requestId, error: { code: RESUMPTION_BOUNDARY_CODE, message: messageOf(boundary), data: { [MARK]: boundary } } };
}

/** The part of the SDK's `Client` (its `Protocol`) that every request goes through. */
interface Requester {
  request(...args: never[]): Promise<unknown>;
}

/**
 * Makes `client`'s requests reject with {@link ResumptionBoundaryError} where the guard refused a
 * resume. Needed because the SDK's protocol layer turns every JSON-RPC error reply into a plain
 * `McpError`; the refusal's details are in its `data` either way. Returns the same client.
 */
export function guardClient<C extends Requester>(client: C): C {
  const request = client.request.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.request = ((...args: unknown[]) =>
    request(...args).catch((error: unknown) => {
      throw ResumptionBoundaryError.from(error) ?? error;
    })) as C['request'];
  return client;
}
