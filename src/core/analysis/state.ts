import type { IdIndex } from '../store/id-index';
import type { RpcRole } from '../read/jsonrpc';
import type { RequestInfo, ResponseInfo, StreamEnd } from '../model';
import type { EventColumns } from '../store/event-table';
import type { Finding, StreamReport, Transport } from '../report';
import type { SeqValue } from '../read/sequence';
import type { SseEvent, SseFramer } from '../read/sse';

/**
 * What the analysis knows of one event: the SSE fields plus the meaning of its first message.
 * Stored as columns (see `EventTable`) and built as this object when read. The parsed JSON
 * itself is not kept (a million events would not fit); the panel re-parses the `data` of the
 * one event a user opens.
 */
export interface EventRecord extends Omit<SseEvent, 'raw' | 'rawPlace'> {
  /** JSON-RPC role, `endpoint` for the legacy handshake, `empty` for priming/id-only blocks. */
  role: RpcRole | 'endpoint' | 'empty' | 'malformed' | 'truncated';
  method: string | undefined;
  /** JSON-RPC id key of a request or response (see `keyOf`). */
  idKey: string | undefined;
  seq: SeqValue | undefined;
  /** A progress notification's token key. */
  progressToken: string | undefined;
  /** The message claims the work is done (a stop reason such as `end_turn`). */
  stopReason: string | undefined;
  resumeToken: string | undefined;
}

/** How a response body is read. */
export type BodyKind = 'sse' | 'json' | 'other';

/** A sequence's last value in a stream, and whether every step so far was exactly one. */
export interface SeqCursor {
  value: number;
  event: number;
  unitSteps: boolean;
}

/** One exchange while it is being analysed. */
export interface StreamState {
  index: number;
  request: RequestInfo;
  response: ResponseInfo | undefined;
  end: StreamEnd;
  lastEventId: string | null;
  /** Undecided until headers, body or first event tell MCP from other traffic. */
  mcp: boolean | undefined;
  session: SessionState | undefined;
  bodyKind: BodyKind;
  framer: SseFramer | undefined;
  /** Pieces of an `application/json` body, joined once at the end (never per chunk: O(N²)). */
  jsonParts: (Uint8Array | string)[];
  events: EventColumns;
  /** Events that were not cut off by the end of the body; the report's count, kept as it grows. */
  completeEvents: number;
  seqCursors: Map<string, SeqCursor>;
  /** JSON-RPC ids of the requests this exchange's body sent. */
  requestKeys: string[];
  findings: Finding[];
  /** This stream's line of the report, once it ended (see `streamReport`). */
  reported: StreamReport | undefined;
}

export interface RequestRecord {
  stream: number;
  method: string;
  /** `method` + params without `_meta`: how a re-issued call is recognised. */
  callKey: string;
  progressToken?: string;
}

/** Everything the rules need about one MCP session, kept up to date event by event. */
export interface SessionState {
  key: string;
  transport: Transport;
  protocolVersion: string | null;
  /** The session's streams, in index order. */
  streams: StreamState[];
  /** First delivery of each event id. */
  ids: IdIndex;
  /** Numeric id rules apply only while every id seen is an integer. */
  allIntegerIds: boolean;
  requests: Map<string, RequestRecord>;
  /** First delivery of each response, by JSON-RPC id key. */
  responses: Map<string, { stream: number; event: number }>;
  /**
   * Requests without a response yet, and the calls that got one: kept as they change, so a report
   * looks at the calls still open instead of at every call of a long session.
   */
  unanswered: Set<string>;
  answeredCalls: Set<string>;
  /** Which exchange asked for each progress token. */
  tokens: Map<string, number>;
  findings: Finding[];
  /** What reports keep between calls (see report-build.ts). */
  settled: SettledStreams;
}

/**
 * The session's leading streams whose report lines and findings can no longer change: ended, with
 * any resume link resolved. A live report is asked for several times a second, and this lets it
 * look only at the streams after them, not at every stream of a long session.
 */
export interface SettledStreams {
  /** How many of `streams` lead the session settled, and the last of them (a stream that joins in among them shifts it). */
  count: number;
  last: StreamState | undefined;
  lines: StreamReport[];
  findings: Finding[];
  /** The settled resumes (GET with Last-Event-ID), whose evaluation may still change as other streams arrive. */
  resumes: StreamState[];
}
