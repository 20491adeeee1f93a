/**
 * The input model of the analysis core: what a capture (the page tap, a HAR file, a test) knows
 * about one HTTP exchange. Everything here is plain data so that the same records can travel
 * through `postMessage`, be written to HAR and be built by hand in tests.
 */

/** One HTTP header. Names compare case-insensitively; see {@link header}. */
export interface Header {
  name: string;
  value: string;
}

/** One piece of a response body as it arrived. */
export interface BodyChunk {
  /** Arrival time, in milliseconds since the Unix epoch (fractions allowed). */
  time: number;
  /**
   * The bytes. A string is taken as already-decoded text (HAR bodies usually are). The analysis
   * may keep `data` to read its events' text from later (see TextStore.borrow): do not change it.
   */
  data: Uint8Array | string;
}

/**
 * How a response body ended.
 * - `complete`: the server closed the body normally.
 * - `reset`: the connection failed mid-body (`error` says how, e.g. `net::ERR_CONNECTION_RESET`).
 * - `cancelled`: the page itself aborted the read.
 * - `open`: still streaming when the capture was taken.
 * - `unknown`: the body is over, but the recorder did not say how (Firefox's HAR export and
 *   its devtools entries mark no reset), and nothing in the body shows it.
 */
export type EndState = 'complete' | 'reset' | 'cancelled' | 'open' | 'unknown';

/** How a body ended, and what the recorder kept of it. */
export interface StreamEnd {
  state: EndState;
  /** When the body ended, ms since the epoch. Absent while `open`. */
  time?: number;
  /** The browser's or the tap's error text for `reset` and `cancelled`. */
  error?: string;
  /**
   * The recorder kept none of the response body: a limit of the writer (a reset stream in
   * Chrome's HAR, a Worker's stream in `onRequestFinished`), not evidence that nothing was sent.
   * The stream's events are then unknown, and no rule concludes anything from their absence. A
   * string says why, in words for the user (the writer's limit).
   */
  bodyAbsent?: true | string;
  /**
   * The recorder kept only the start of the body (a cap of its own: the proxy's recording cap),
   * and says why in words. The kept start is read as usual; what came after it is unknown, like
   * an absent body's events, so no rule concludes anything from events missing after the clip,
   * and the unfinished event the clip cut is no sign of a break. `state` is how the connection
   * ended (`unknown` when it closed normally: the kept body did not end there).
   */
  bodyClipped?: string;
  /**
   * `state` was inferred from the body rather than recorded: a body that ends inside an event
   * was cut (`reset`), though the writer marked no error.
   */
  inferred?: true;
}

/** The request half of an exchange: everything known before any response arrives. */
export interface RequestInfo {
  method: string;
  url: string;
  headers: Header[];
  /** The request body as text, when there was one (JSON-RPC POSTs). */
  body?: string;
  /** When the request started, ms since the epoch. */
  startTime: number;
  /** Where the input held this exchange (a HAR entry's index), for findings' evidence. */
  entry?: number;
}

/** The response head. `status` is 0 when no response arrived at all. */
export interface ResponseInfo {
  status: number;
  headers: Header[];
}

/** One complete HTTP exchange, as a HAR entry or a finished capture describes it. */
export interface Exchange extends RequestInfo {
  status: number;
  responseHeaders: Header[];
  chunks: BodyChunk[];
  end: StreamEnd;
}

/** Options that change what the analysis looks at. */
export interface AnalysisOptions {
  /**
   * Extra application-sequence locations, as RFC 6901 JSON pointers into each JSON-RPC message
   * (for example `/params/data/seq`). Used when a message carries neither `app_seq` nor progress.
   */
  appSeqPointers?: readonly string[];
  /**
   * Keep each event's data, for someone to read later (the panel's detail, an export). Without it
   * the analysis keeps only what the rules read (and event ids): a report costs no payload bytes,
   * and no body chunk is held. Default true; the CLI turns it off.
   */
  keepPayloads?: boolean;
  /**
   * Read every SSE block the general way: eventsource-parser and JSON.parse, with no learned block
   * template or JSON shape. The report is the same either way (tests run every rule both ways);
   * the learned readers are only faster. Default true.
   */
  learnedReaders?: boolean;
  /**
   * Keep events in the plain twins of the packed store (arrays of records, a `Map` of ids; see
   * core/store/). The report is the same either way; the packed store is only smaller and faster.
   */
  store?: 'packed' | 'plain' | { table: 'packed' | 'plain'; ids: 'packed' | 'plain' };
}

/** Returns the first header called `name` (case-insensitive), or undefined. */
export function header(headers: readonly Header[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const h of headers) if (h.name.toLowerCase() === wanted) return h.value;
  return undefined;
}
