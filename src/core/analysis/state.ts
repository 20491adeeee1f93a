import type { RequestInfo, ResponseInfo, StreamEnd } from '../model';
import type { MessageFacts } from '../read/facts';
import type { SseEvent, SseFramer } from '../read/sse';
import type { Finding, StreamReport, Transport } from '../report';
import type { EventTableWriter } from '../store/event-table';
import type { IdRecord } from '../store/id-index';

/**
 * What the analysis knows of one event: its SSE fields plus the facts of its (first) message.
 * Stored as columns (see `EventTable`) and built as this object when read. The parsed JSON
 * itself is not kept (a million events would not fit); the panel re-parses the `data` of the
 * one event a user opens.
 */
export interface EventRecord extends SseEvent, Pick<MessageFacts, 'role' | 'method' | 'idKey' | 'seq' | 'progressToken' | 'stopReason' | 'resumeToken'> {}

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
  events: EventTableWriter;
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
  ids: IdRecord;
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
  /** The session's streams whose body the recorder did not keep (see StreamEnd.bodyAbsent). */
  unseen: StreamState[];
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
