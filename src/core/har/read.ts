import { isRecord } from '../read/jsonrpc';
import { header, type EndState, type Exchange, type Header, type StreamEnd } from '../model';
import { endsInsideEvent, readBody, type EntryTimes } from './read-body';
import { requestBodyOf } from './read-request';

/** What reading a HAR gave: the exchanges, and an account of every entry or field left out. */
export type HarReadResult =
  | { ok: true; exchanges: Exchange[]; skippedEntries: number; problems: string[] }
  | { ok: false; reason: string };

/** Options for reading HAR. */
export interface HarReadOptions {
  /**
   * Loads a body that Playwright stored beside the HAR (`content._file`, its `attach` mode).
   * Undefined when the file cannot be read; the core itself never touches the file system.
   */
  loadFile?: (name: string) => Uint8Array | undefined;
}

/**
 * What one entry needs from the rest of the file: read from `log.creator` and `log.pages`,
 * which come before `log.entries` in every writer's output, so a reader that streams entries
 * can build it first (see {@link readLogContext}).
 */
export interface EntryContext {
  /** The entry's index in `log.entries`; becomes `Exchange.entry`. */
  index?: number;
  /**
   * The writer marks no failed body: Firefox's export (and its devtools entries) give a reset
   * stream status 200 and its partial body, with no error field. Its ends are then `unknown`.
   */
  marksNoErrors?: boolean;
  /** `startedDateTime` of each page by id, ms since the epoch (chrome-har's `_chunks` count from it). */
  pageStarts?: ReadonlyMap<string, number>;
}

/** Problems listed individually before the rest are only counted. */
const MAX_LISTED_PROBLEMS = 20;
const END_STATES: readonly EndState[] = ['complete', 'reset', 'cancelled', 'open', 'unknown'];
/** Browser error names for a request the page itself aborted (Chrome, Firefox). */
const ABORTED = /^(net::ERR_ABORTED|NS_BINDING_ABORTED|AbortError)\b/;

/**
 * Reads HAR 1.2 as each common writer writes it: Chrome DevTools, Firefox, Playwright's
 * `recordHar`, chrome-har, mitmproxy's `har_dump`, and ours (test/fixtures/har/writers/README.md
 * has what each records). The file is untrusted: a broken entry is skipped and counted, never
 * thrown on; only a file that is not HAR at all gives `ok: false` with a one-line reason.
 */
export function readHar(text: string, options: HarReadOptions = {}): HarReadResult {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  return harToExchanges(value, options);
}

/** {@link readHar} on a parsed file. */
export function harToExchanges(value: unknown, options: HarReadOptions = {}): HarReadResult {
  if (!isRecord(value) || !isRecord(value.log)) return { ok: false, reason: NO_LOG };
  const entries = value.log.entries;
  if (!Array.isArray(entries)) return { ok: false, reason: NO_ENTRIES };
  const problems = createProblemList();
  const context = readLogContext(value.log);
  const exchanges: Exchange[] = [];
  let skippedEntries = 0;
  entries.forEach((entry, index) => {
    const exchange = readEntry(entry, options, (message) => problems.add(`entry ${index}: ${message}`), { ...context, index });
    if (exchange) exchanges.push(exchange);
    else skippedEntries++;
  });
  return { ok: true, exchanges, skippedEntries, problems: problems.list() };
}

/** Why a file is not HAR; the streaming reader gives the same reasons. */
export const NO_LOG = 'not a HAR file: there is no "log" object';
export const NO_ENTRIES = 'not a HAR file: "log.entries" is not an array';

/** A file's problems: the first {@link MAX_LISTED_PROBLEMS} listed, the rest counted. */
export function createProblemList(): { add(message: string): void; list(): string[] } {
  const problems: string[] = [];
  let count = 0;
  return {
    add(message) {
      count++;
      if (problems.length < MAX_LISTED_PROBLEMS) problems.push(message);
    },
    list: () => (count > problems.length ? [...problems, `… and ${count - problems.length} more problems`] : [...problems]),
  };
}

/** The {@link EntryContext} a `log` object gives its entries (all but `index`). */
export function readLogContext(log: unknown): EntryContext {
  if (!isRecord(log)) return {};
  const creator = isRecord(log.creator) && typeof log.creator.name === 'string' ? log.creator.name : '';
  const pageStarts = new Map<string, number>();
  if (Array.isArray(log.pages)) {
    for (const page of log.pages) {
      if (!isRecord(page) || typeof page.id !== 'string' || typeof page.startedDateTime !== 'string') continue;
      const start = Date.parse(page.startedDateTime);
      if (!Number.isNaN(start)) pageStarts.set(page.id, start);
    }
  }
  return { marksNoErrors: creator === 'Firefox', pageStarts };
}

/**
 * Turns one parsed HAR entry into an {@link Exchange}, or undefined (with a problem) when it
 * has no request to speak of. Fields a writer does not write are ignored, and impossible values
 * (`size: -1`, `time: -1`, a date in the future) are read as "not known", never thrown on.
 */
export function readEntry(entry: unknown, options: HarReadOptions, problem: (message: string) => void, context: EntryContext = {}): Exchange | undefined {
  if (!isRecord(entry) || !isRecord(entry.request)) return void problem('skipped: no request object');
  const { request } = entry;
  if (typeof request.method !== 'string' || typeof request.url !== 'string') return void problem('skipped: request without method or url');
  const response = isRecord(entry.response) ? entry.response : {};
  const parsedStart = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN;
  if (Number.isNaN(parsedStart)) problem('startedDateTime missing or invalid; timing starts at 0');
  const start = Number.isNaN(parsedStart) ? 0 : parsedStart;
  const duration = typeof entry.time === 'number' && Number.isFinite(entry.time) && entry.time >= 0 ? entry.time : 0;
  const pageStart = typeof entry.pageref === 'string' ? context.pageStarts?.get(entry.pageref) : undefined;
  const times: EntryTimes = { start, end: start + duration, ...(pageStart !== undefined && { pageStart }) };
  const responseHeaders = readHeaders(response.headers, problem);

  const recorded = recordedEnd(entry, response);
  const failed = recorded !== undefined && recorded.state !== 'complete' && recorded.state !== 'open';
  const body = readBody(entry, isRecord(response.content) ? response.content : {}, times, failed, options, problem);
  const end: StreamEnd = recorded ?? inferredEnd(body.text, responseHeaders, context);
  // A body cannot end before its last chunk arrived; chrome-har's `time` leaves out the wait
  // before the request was sent, and `_eventSourceMessages` carry times of their own.
  end.time ??= body.chunks.reduce((latest, c) => Math.max(latest, c.time), times.end);
  if (body.absent) end.bodyAbsent = true;

  const exchange: Exchange = {
    method: request.method,
    url: request.url,
    headers: readHeaders(request.headers, problem),
    startTime: start,
    status: typeof response.status === 'number' && Number.isInteger(response.status) ? response.status : 0,
    responseHeaders,
    chunks: body.chunks,
    end,
  };
  const requestBody = requestBodyOf(isRecord(request.postData) ? request.postData : undefined);
  if (requestBody !== undefined) exchange.body = requestBody;
  if (context.index !== undefined) exchange.entry = context.index;
  return exchange;
}

function readHeaders(headers: unknown, problem: (message: string) => void): Header[] {
  if (!Array.isArray(headers)) return [];
  const out: Header[] = [];
  for (const h of headers) {
    if (isRecord(h) && typeof h.name === 'string' && typeof h.value === 'string') out.push({ name: h.name, value: h.value });
    else problem('a header without string name and value was left out');
  }
  return out;
}

/**
 * The end the writer recorded: ours in `_end`; Chrome's `_error` (on the response, or on the
 * entry in some tools); Playwright's `_failureText`. Undefined when the writer says nothing.
 */
/** The longest reason for an absent body taken from a file. */
const MAX_ABSENT_REASON = 200;

function recordedEnd(entry: Record<string, unknown>, response: Record<string, unknown>): StreamEnd | undefined {
  const ours = isRecord(entry._end) ? entry._end : undefined;
  if (ours && END_STATES.includes(ours.state as EndState)) {
    const end: StreamEnd = { state: ours.state as EndState };
    if (typeof ours.error === 'string') end.error = ours.error;
    if (ours.inferred === true) end.inferred = true;
    if (ours.bodyAbsent === true) end.bodyAbsent = true;
    // The writer's own words for its limit; the file is untrusted, so they are kept short.
    else if (typeof ours.bodyAbsent === 'string' && ours.bodyAbsent !== '') end.bodyAbsent = ours.bodyAbsent.slice(0, MAX_ABSENT_REASON);
    if (typeof ours.bodyClipped === 'string' && ours.bodyClipped !== '') end.bodyClipped = ours.bodyClipped.slice(0, MAX_ABSENT_REASON);
    return end;
  }
  const error = [response._error, entry._error, response._failureText, entry._failureText].find((e): e is string => typeof e === 'string' && e !== '');
  if (!error) return undefined;
  // An abort is the page (or client) cancelling, not the network failing.
  return { state: ABORTED.test(error) ? 'cancelled' : 'reset', error };
}

/**
 * The end of an entry whose writer recorded none. An event stream that stops inside an event
 * was cut, whatever the writer says; otherwise the body ended normally, unless the writer is
 * one that never marks a failure (Firefox), whose ends are then unknown.
 */
function inferredEnd(text: string | undefined, responseHeaders: readonly Header[], context: EntryContext): StreamEnd {
  const isStream = (header(responseHeaders, 'content-type') ?? '').toLowerCase().includes('text/event-stream');
  if (isStream && text !== undefined && endsInsideEvent(text)) return { state: 'reset', inferred: true };
  return { state: context.marksNoErrors ? 'unknown' : 'complete' };
}
