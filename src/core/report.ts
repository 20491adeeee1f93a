/**
 * The stable report contract (DESIGN.md section 6). The CLI prints it with `--format json`, the
 * panel exports it, and CI jobs parse it: add fields if you must, never rename or remove one.
 */

export type Severity = 'error' | 'warning' | 'info';

/** What a resume turned out to be. */
export type Verdict = 'genuine' | 'gap' | 'duplicate' | 'unverifiable' | 'empty' | 'rejected' | 'expired';

export type Transport = 'streamable-http' | 'http+sse' | 'stateless';

export type FindingCode =
  | 'resume-seq-gap'
  | 'resume-seq-regress'
  | 'resume-id-gap'
  | 'resume-terminal-unproven'
  | 'resume-unverifiable'
  | 'resume-token-mismatch'
  | 'resume-empty'
  | 'resume-rejected'
  | 'session-expired'
  | 'resume-unknown-id'
  | 'resume-cross-stream'
  | 'resume-missing-last-event-id'
  | 'resume-on-stateless'
  | 'duplicate-event-id'
  | 'seq-regress'
  | 'seq-gap'
  | 'malformed-event'
  | 'result-lost';

export interface StreamReport {
  /** Position of the stream in the capture, unique across the whole report. */
  index: number;
  method: string;
  url: string;
  status: number;
  /** The `Last-Event-ID` this request sent, or null. */
  lastEventId: string | null;
  /** Index of the stream this one resumes, or null when it is not a resume. */
  resumes: number | null;
  /** Number of complete SSE events (id-only and priming events included). */
  events: number;
  end: 'complete' | 'reset' | 'open';
  /** Why a `reset` stream ended: the browser's error, or `cancelled` when the page aborted it. */
  error?: string;
}

export interface ResumeReport {
  /** The resuming stream. */
  stream: number;
  /** The stream that delivered `lastEventId`, or null when no stream of the session did. */
  of: number | null;
  lastEventId: string;
  verdict: Verdict;
}

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** Index of the stream the finding points at. */
  stream: number;
  /** Index of the event within that stream, or null when it concerns the stream as a whole. */
  event: number | null;
  /** One plain sentence with the evidence (ids, values). */
  message: string;
}

export interface SessionReport {
  key: string;
  transport: Transport;
  protocolVersion: string | null;
  streams: StreamReport[];
  resumes: ResumeReport[];
  findings: Finding[];
}

export interface Report {
  tool: 'mcp-stream-lens';
  reportVersion: 1;
  sessions: SessionReport[];
  summary: {
    sessions: number;
    streams: number;
    events: number;
    errors: number;
    warnings: number;
    /** Exchanges of the input that were not MCP traffic and so were left out. */
    ignoredExchanges: number;
  };
}
