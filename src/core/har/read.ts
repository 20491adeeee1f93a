import type { HarSseEvent } from './types';
import { isRecord } from '../read/jsonrpc';
import type { BodyChunk, EndState, Exchange, Header, StreamEnd } from '../model';

/** What reading a HAR gave: the exchanges, and an account of every entry or field left out. */
export type HarReadResult =
  | { ok: true; exchanges: Exchange[]; skippedEntries: number; problems: string[] }
  | { ok: false; reason: string };

/** Problems listed individually before the rest are only counted. */
const MAX_LISTED_PROBLEMS = 20;
const END_STATES: readonly EndState[] = ['complete', 'reset', 'cancelled', 'open'];
/** Browser error names for a request the page itself aborted (Chrome, Firefox). */
const ABORTED = /^(net::ERR_ABORTED|NS_BINDING_ABORTED|AbortError)\b/;

/**
 * Reads HAR 1.2 as Chrome, Firefox and Playwright write it, and as we write it. The file is
 * untrusted: a broken entry is skipped and counted, never thrown on; only a file that is not HAR
 * at all gives `ok: false` with a one-line reason.
 */
/** Options for reading HAR. */
export interface HarReadOptions {
  /**
   * Loads a body that Playwright stored beside the HAR (`content._file`, its `attach` mode).
   * Undefined when the file cannot be read; the core itself never touches the file system.
   */
  loadFile?: (name: string) => Uint8Array | undefined;
}

export function readHar(text: string, options: HarReadOptions = {}): HarReadResult {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  return harToExchanges(value, options);
}

export function harToExchanges(value: unknown, options: HarReadOptions = {}): HarReadResult {
  if (!isRecord(value) || !isRecord(value.log)) return { ok: false, reason: 'not a HAR file: there is no "log" object' };
  const entries = value.log.entries;
  if (!Array.isArray(entries)) return { ok: false, reason: 'not a HAR file: "log.entries" is not an array' };
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (message: string): void => {
    problemCount++;
    if (problems.length < MAX_LISTED_PROBLEMS) problems.push(message);
  };
  const exchanges: Exchange[] = [];
  let skippedEntries = 0;
  entries.forEach((entry, index) => {
    const exchange = readEntry(entry, options, (message) => problem(`entry ${index}: ${message}`));
    if (exchange) exchanges.push(exchange);
    else skippedEntries++;
  });
  if (problemCount > problems.length) problems.push(`… and ${problemCount - problems.length} more problems`);
  return { ok: true, exchanges, skippedEntries, problems };
}

function readEntry(entry: unknown, options: HarReadOptions, problem: (message: string) => void): Exchange | undefined {
  if (!isRecord(entry) || !isRecord(entry.request)) return void problem('skipped: no request object');
  const { request } = entry;
  if (typeof request.method !== 'string' || typeof request.url !== 'string') return void problem('skipped: request without method or url');
  const response = isRecord(entry.response) ? entry.response : {};
  const parsedStart = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN;
  if (Number.isNaN(parsedStart)) problem('startedDateTime missing or invalid; timing starts at 0');
  const startTime = Number.isNaN(parsedStart) ? 0 : parsedStart;
  const duration = typeof entry.time === 'number' && entry.time >= 0 ? entry.time : 0;
  const endTime = startTime + duration;
  const postData = isRecord(request.postData) ? request.postData : undefined;
  const exchange: Exchange = {
    method: request.method,
    url: request.url,
    headers: readHeaders(request.headers, problem),
    startTime,
    status: typeof response.status === 'number' && Number.isInteger(response.status) ? response.status : 0,
    responseHeaders: readHeaders(response.headers, problem),
    chunks: readBody(entry, isRecord(response.content) ? response.content : {}, startTime, endTime, options, problem),
    end: readEnd(entry, response, endTime),
  };
  if (typeof postData?.text === 'string') exchange.body = postData.text;
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

function readEnd(entry: Record<string, unknown>, response: Record<string, unknown>, time: number): StreamEnd {
  const ours = isRecord(entry._end) ? entry._end : undefined;
  if (ours && END_STATES.includes(ours.state as EndState)) {
    const end: StreamEnd = { state: ours.state as EndState, time };
    if (typeof ours.error === 'string') end.error = ours.error;
    return end;
  }
  // Chrome puts `_error` on the response; some tools put it on the entry.
  const error = [response._error, entry._error].find((e): e is string => typeof e === 'string' && e !== '');
  if (!error) return { state: 'complete', time };
  // An abort is the page (or client) cancelling, not the network failing.
  return { state: ABORTED.test(error) ? 'cancelled' : 'reset', time, error };
}

function readBody(
  entry: Record<string, unknown>,
  content: Record<string, unknown>,
  startTime: number,
  endTime: number,
  options: HarReadOptions,
  problem: (message: string) => void,
): BodyChunk[] {
  if (typeof content.text === 'string' && content.text !== '') {
    let bytes: Uint8Array | string = content.text;
    if (content.encoding === 'base64') {
      const decoded = decodeBase64(content.text);
      if (!decoded) {
        problem('content.text is not valid base64; body left out');
        return [];
      }
      bytes = decoded;
    }
    return cutByChunks(bytes, entry._chunks, startTime, endTime, problem);
  }
  if (typeof content._file === 'string' && options.loadFile) {
    const bytes = options.loadFile(content._file);
    if (bytes) return cutByChunks(bytes, entry._chunks, startTime, endTime, problem);
    problem(`content._file ${JSON.stringify(content._file)} could not be read; body left out`);
  }
  if (Array.isArray(entry._sse)) return sseToChunks(entry._sse, startTime, problem);
  return [];
}

/** Restores live timing from `_chunks`; without it (or if it does not add up) one chunk at the end. */
function cutByChunks(body: Uint8Array | string, chunks: unknown, startTime: number, endTime: number, problem: (message: string) => void): BodyChunk[] {
  if (!Array.isArray(chunks)) return [{ time: endTime, data: body }];
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const valid = chunks.every((c) => isRecord(c) && typeof c.t === 'number' && Number.isInteger(c.n) && (c.n as number) >= 0);
  const total = valid ? chunks.reduce((sum: number, c) => sum + (c as { n: number }).n, 0) : -1;
  if (total !== bytes.length) {
    problem('_chunks does not add up to the body; its timing was ignored');
    return [{ time: endTime, data: body }];
  }
  const out: BodyChunk[] = [];
  let offset = 0;
  for (const c of chunks as { t: number; n: number }[]) {
    out.push({ time: startTime + c.t, data: bytes.subarray(offset, offset + c.n) });
    offset += c.n;
  }
  return out;
}

/** A HAR with only our `_sse` events (no body text): write each event back as SSE at its time. */
function sseToChunks(events: unknown[], startTime: number, problem: (message: string) => void): BodyChunk[] {
  const out: BodyChunk[] = [];
  for (const e of events) {
    if (!isRecord(e) || typeof e.data !== 'string' || typeof e.t !== 'number') {
      problem('an _sse event without data or t was left out');
      continue;
    }
    const event = e as unknown as HarSseEvent;
    let text = '';
    if (typeof event.event === 'string') text += `event: ${oneLine(event.event)}\n`;
    if (typeof event.id === 'string') text += `id: ${oneLine(event.id)}\n`;
    if (typeof event.retry === 'number') text += `retry: ${Math.trunc(event.retry)}\n`;
    for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
    out.push({ time: startTime + event.t, data: `${text}\n` });
  }
  return out;
}

/** Field values cannot hold line breaks in SSE; a hostile file must not forge extra fields. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}

function decodeBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
