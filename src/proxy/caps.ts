/**
 * Every buffer the proxy holds has a cap here, and every cap counts what it drops in
 * {@link ProxyCounters}. Traffic over a cap is still proxied: only the recording loses it, and
 * the loss is shown (status line, final report, the live view's drop counter).
 */

/** Exchanges one run records; later ones are proxied, not recorded. */
export const MAX_EXCHANGES = 10_000;
/** Response body bytes recorded per exchange; the rest of a longer body is proxied, not recorded. */
export const MAX_STREAM_RECORD_BYTES = 64 * 1024 * 1024;
/** Body bytes (requests and responses) recorded in all, across the run. */
export const MAX_RECORDING_BYTES = 256 * 1024 * 1024;
/**
 * Body chunks recorded in all: each costs a record of its own (its place and arrival time) beside
 * its bytes, so a server that sends a byte at a time must not fill memory under the byte caps.
 * Legitimate traffic (a chunk per event or more) reaches MAX_RECORDING_BYTES first.
 */
export const MAX_RECORDED_CHUNKS = 2_000_000;
/** Request body bytes recorded per exchange; MCP requests are small JSON-RPC messages. */
export const MAX_REQUEST_RECORD_BYTES = 1024 * 1024;
/** Bytes held while looking for the legacy transport's `endpoint` event; past it, bytes pass unchanged. */
export const MAX_ENDPOINT_HOLD_BYTES = 64 * 1024;
/** Client connections at once; more are refused by the server (Node's `maxConnections`). */
export const MAX_CONNECTIONS = 1_024;
/** Live-view feeds at once. */
export const MAX_VIEWERS = 8;
/** Bytes one live-view feed may have queued unsent; a viewer that falls further behind is cut. */
export const MAX_VIEWER_BACKLOG_BYTES = 32 * 1024 * 1024;
/** Characters of body text in one live-view item; longer chunks are split. */
export const MAX_FEED_TEXT_CHARS = 1024 * 1024;
/**
 * Body bytes one batch posted to the analysis worker refers to (the worker reads them from the
 * spool into a buffer of this size). What waits to be posted is places in the spool, so the
 * analysis falling behind holds no bytes in memory.
 */
export const MAX_ANALYSIS_BATCH_BYTES = 4 * 1024 * 1024;
/** Batches posted to the analysis worker and not yet acknowledged. */
export const MAX_ANALYSIS_BATCHES_IN_FLIGHT = 2;
/** How long a stop waits for open streams before it cuts them. */
export const STOP_WAIT_MS = 3_000;

/** The longest response head read from a target (status line and headers): a longer one is answered 502. */
export const MAX_RESPONSE_HEAD_BYTES = 64 * 1024;

/** What went wrong or was dropped, counted since the proxy started. */
export interface ProxyCounters {
  /** Exchanges proxied but not recorded: {@link MAX_EXCHANGES}. */
  exchangesNotRecorded: number;
  /** Response bytes proxied but not recorded: {@link MAX_STREAM_RECORD_BYTES}, {@link MAX_RECORDING_BYTES} or {@link MAX_RECORDED_CHUNKS}. */
  bytesNotRecorded: number;
  /** Exchanges whose response body outgrew a cap, so only its start was recorded. */
  streamsClipped: number;
  /** Bodies clipped because the recording file refused their bytes (a full disk): see spool.ts. */
  recordingFileErrors: number;
  /** Request bodies proxied but not recorded: {@link MAX_REQUEST_RECORD_BYTES}. */
  requestBodiesNotRecorded: number;
  /** Connections that sent what is not HTTP (answered 400, or closed). */
  badClientRequests: number;
  /** Connections refused at {@link MAX_CONNECTIONS}. */
  connectionsRefused: number;
  /** Requests whose path matched no target's prefix (answered 404). */
  unrouted: number;
  /** Requests the target did not answer (refused, unreachable, broke before its headers): answered 502. */
  targetErrors: number;
  /** Bodies the target broke off mid-way (passed on to the client as a reset). */
  targetResets: number;
  /** Bodies the client gave up on before their end (passed on to the target as a close or reset). */
  clientResets: number;
  /** Legacy `endpoint` events not found within {@link MAX_ENDPOINT_HOLD_BYTES} (passed unchanged). */
  endpointsNotRewritten: number;
  /** Live-view requests refused: a wrong `Host` or a wrong token. */
  viewRefused: number;
  /** Live-view feeds cut: over {@link MAX_VIEWERS} or {@link MAX_VIEWER_BACKLOG_BYTES}. */
  viewersCut: number;
}

export function createCounters(): ProxyCounters {
  return {
    exchangesNotRecorded: 0,
    bytesNotRecorded: 0,
    streamsClipped: 0,
    recordingFileErrors: 0,
    requestBodiesNotRecorded: 0,
    badClientRequests: 0,
    connectionsRefused: 0,
    unrouted: 0,
    targetErrors: 0,
    targetResets: 0,
    clientResets: 0,
    endpointsNotRewritten: 0,
    viewRefused: 0,
    viewersCut: 0,
  };
}

/** The counters that are not zero, as `name N` pairs for a status or report line. */
export function nonZero(counters: ProxyCounters): string[] {
  return Object.entries(counters).filter(([, n]) => n > 0).map(([name, n]) => `${name} ${n}`);
}
