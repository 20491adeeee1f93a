/**
 * The stable report contract (docs/report.md). The CLI prints it with `--format json`, the
 * panel exports it, and CI jobs parse it: add fields if you must, never rename or remove one.
 */

/**
 * How bad a finding is. `error` fails the CLI (exit 1); `warning` fails it only with
 * `--fail-on warning`; `info` never does.
 */
export type Severity = 'error' | 'warning' | 'info';

/**
 * What a resume turned out to be.
 * - `genuine`: the application sequence (or resume token) continues across the boundary.
 * - `gap`: values were skipped: the replica lost the buffer and invented the rest.
 * - `duplicate`: the replay started at or before a value already seen.
 * - `unverifiable`: nothing in the replay (or the capture) can prove or disprove continuity.
 * - `empty`: a success status with no event.
 * - `rejected`: the server refused the resume (409, 400): the honest answer.
 * - `expired`: the server no longer knows the session (404).
 */
export type Verdict = 'genuine' | 'gap' | 'duplicate' | 'unverifiable' | 'empty' | 'rejected' | 'expired';

/**
 * The MCP transport a session speaks: Streamable HTTP (`Mcp-Session-Id`), the legacy HTTP+SSE
 * transport (`?sessionId=`, an `endpoint` event), or the 2026-07-28 revision's stateless HTTP.
 */
export type Transport = 'streamable-http' | 'http+sse' | 'stateless';

/** Every finding the analysis raises; `FINDINGS` (rules/findings.ts) says what each means. */
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
  | 'result-lost'
  | 'body-not-captured'
  | 'no-mcp-traffic';

/** One HTTP exchange of a session, as the report lists it. */
export interface StreamReport {
  /** Position of the stream in the capture, unique across the whole report. */
  index: number;
  /** The HTTP method (`POST`, `GET`, `DELETE`). */
  method: string;
  url: string;
  /** The response status; 0 when no response arrived. */
  status: number;
  /** The `Last-Event-ID` this request sent, or null. */
  lastEventId: string | null;
  /** Index of the stream this one resumes, or null when it is not a resume. */
  resumes: number | null;
  /** Number of complete SSE events (id-only and priming events included). */
  events: number;
  /**
   * How the body ended: `complete` (closed normally), `reset` (the connection failed, or the page
   * cancelled the read), `open` (still streaming when the report was made), or `unknown` (the
   * recorder did not say, and nothing in the body shows it).
   */
  end: 'complete' | 'reset' | 'open' | 'unknown';
  /** Why a `reset` stream ended: the browser's error, or `cancelled` when the page aborted it. */
  error?: string;
  /**
   * How much of the body the recorder kept: all of it, up to a reset (`partial`), or none
   * (`absent`: the writer did not record it, which says nothing about what was sent).
   */
  body?: 'full' | 'partial' | 'absent';
}

/** One GET that carried `Last-Event-ID`, and what it turned out to be. */
export interface ResumeReport {
  /** The resuming stream. */
  stream: number;
  /** The stream that delivered `lastEventId`, or null when no stream of the session did. */
  of: number | null;
  lastEventId: string;
  verdict: Verdict;
}

/** The values behind a finding, for tools that act on them rather than on the sentence. */
export interface FindingEvidence {
  /** What the rule expected (for example the next app_seq). */
  expected?: string | number;
  /** What arrived instead. */
  got?: string | number;
  /** The last value seen before the boundary. */
  lastSeen?: string | number;
  /** The index of the input's entry (a HAR entry) the finding points at. */
  entry?: number;
  /** When the event arrived, ms since the epoch. */
  time?: number;
}

/** One thing the analysis found. Its code's meaning and advice are in `FINDINGS`. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** Index of the stream the finding points at. */
  stream: number;
  /** Index of the event within that stream, or null when it concerns the stream as a whole. */
  event: number | null;
  /** One plain sentence with the evidence (ids, values). */
  message: string;
  /** The evidence as values, where the rule has them. */
  evidence?: FindingEvidence;
}

/** A finding about the input as a whole rather than one session (no MCP traffic at all). */
export interface InputFinding {
  code: FindingCode;
  severity: Severity;
  /** One plain sentence. */
  message: string;
}

/** One MCP session: its streams, its resumes and what was found in them. */
export interface SessionReport {
  /** `Mcp-Session-Id`, the legacy `sessionId`, or origin + path for stateless traffic. */
  key: string;
  transport: Transport;
  /** The revision announced (`MCP-Protocol-Version`, or the initialize result), or null. */
  protocolVersion: string | null;
  streams: StreamReport[];
  resumes: ResumeReport[];
  /** Sorted by stream, then event, then code. */
  findings: Finding[];
}

/** The analysis of one capture. */
export interface Report {
  tool: 'mcp-stream-lens';
  reportVersion: 1;
  /** In the order their first stream appears in the capture. */
  sessions: SessionReport[];
  /** Findings about the input as a whole; counted in the summary like the sessions' findings. */
  findings: InputFinding[];
  summary: {
    sessions: number;
    streams: number;
    /** Complete SSE events over every stream. */
    events: number;
    /** Findings of severity `error`, over every session. */
    errors: number;
    warnings: number;
    /** Exchanges of the input that were not MCP traffic and so were left out. */
    ignoredExchanges: number;
  };
}
