import { hasMcpHeader, isMcpRequest, type Header, type RequestInfo } from '../../core/index';
import type { CapturedItem } from '../../shared/messages';
import { MAX_CHUNK_BYTES, MAX_REQUEST_BODY_CHARS } from '../../shared/tap-validation';
import { MAX_DEBUGGER_CANDIDATES, MAX_DEBUGGER_STREAMS } from '../debugger/cdp-network';
import type { HttpHeader, RequestDetails, StreamFilter } from './webrequest-api';

/** Firefox's error for a request its page (or the extension) aborted: the page's cancel, not a reset. */
const ABORTED = 'NS_BINDING_ABORTED';

interface Candidate {
  method: string;
  url: string;
  startTime: number;
  body?: string;
  headers: Header[];
}

interface Followed {
  stream: number;
  filter: StreamFilter;
  decoder: TextDecoder;
  /** The filter has handed on its last byte (stop) or given up (error). */
  filterDone: 'stop' | 'error' | null;
  /** How the request itself ended (onCompleted / onErrorOccurred), once it has. */
  outcome: (CapturedItem & { kind: 'end' })['end'] | null;
}

const toHeaders = (h: HttpHeader[] | undefined): Header[] =>
  (h ?? []).filter((x) => typeof x.name === 'string' && typeof x.value === 'string').map((x) => ({ name: x.name, value: x.value! }));

const requestOf = (c: Candidate): RequestInfo => ({ method: c.method, url: c.url, headers: c.headers, startTime: c.startTime, ...(c.body === undefined ? {} : { body: c.body }) });

function bodyOf(details: RequestDetails): string | undefined {
  const raw = details.requestBody?.raw;
  if (!Array.isArray(raw)) return undefined;
  const decoder = new TextDecoder();
  let text = '';
  for (const part of raw) {
    if (!(part?.bytes instanceof ArrayBuffer)) continue;
    text += decoder.decode(part.bytes.slice(0, MAX_REQUEST_BODY_CHARS * 4), { stream: true });
    if (text.length >= MAX_REQUEST_BODY_CHARS) break;
  }
  return text.slice(0, MAX_REQUEST_BODY_CHARS);
}

/**
 * Turns the webRequest events of one tab, and the response bytes its StreamFilters pass on, into
 * the capture's items as the page tap would record them: open, response, chunks with their
 * arrival time and length, and how the stream ended. Only MCP requests are filtered: known by
 * their request (headers, JSON-RPC body) or else their response's MCP headers, decided in the
 * blocking `onHeadersReceived`, before the first byte of the body. `wanted` says whether an MCP
 * request is one to take (the page tap already has the page's own). Caps are the debugger's.
 */
export function createFilterNetwork(deps: {
  nextStream: () => number;
  emit: (item: CapturedItem) => void;
  drop: () => void;
  filterResponseData: (requestId: string) => StreamFilter;
  wanted: (details: RequestDetails, request: RequestInfo) => boolean;
  now: () => number;
}) {
  const candidates = new Map<string, Candidate>();
  const followed = new Map<string, Followed>();
  let streams = 0;

  function end(requestId: string, f: Followed, endState: Followed['outcome'] & object): void {
    followed.delete(requestId);
    const tail = f.decoder.decode();
    if (tail) deps.emit({ kind: 'chunk', stream: f.stream, time: endState.time ?? deps.now(), bytes: 0, text: tail });
    deps.emit({ kind: 'end', stream: f.stream, end: endState });
  }

  /**
   * A stream ends once both its request and its filter are done: the filter's last bytes may
   * come after the request's end event (they travel apart), and are part of the stream.
   */
  function settle(requestId: string, f: Followed): void {
    if (!f.outcome || !f.filterDone) return;
    // The filter gave up before the end: what it passed on is not the whole body.
    const outcome = f.filterDone === 'error' && f.outcome.state === 'complete' ? { state: 'unknown' as const, time: f.outcome.time! } : f.outcome;
    end(requestId, f, outcome);
  }

  function follow(requestId: string, c: Candidate, status: number, responseHeaders: Header[]): void {
    if (streams >= MAX_DEBUGGER_STREAMS) return deps.drop();
    let filter: StreamFilter;
    try {
      filter = deps.filterResponseData(requestId);
    } catch {
      return deps.drop();
    }
    streams += 1;
    const f: Followed = { stream: deps.nextStream(), filter, decoder: new TextDecoder(), filterDone: null, outcome: null };
    followed.set(requestId, f);
    deps.emit({ kind: 'open', stream: f.stream, api: 'fetch', request: requestOf(c) });
    deps.emit({ kind: 'response', stream: f.stream, response: { status, headers: responseHeaders } });
    filter.ondata = (event) => {
      // The page's bytes first, unchanged: the capture only reads them.
      filter.write(event.data);
      if (!followed.has(requestId)) return;
      const bytes = event.data.byteLength;
      if (bytes > MAX_CHUNK_BYTES) return deps.drop();
      deps.emit({ kind: 'chunk', stream: f.stream, time: deps.now(), bytes, text: f.decoder.decode(new Uint8Array(event.data), { stream: true }) });
    };
    filter.onstop = () => {
      filter.close();
      f.filterDone = 'stop';
      settle(requestId, f);
    };
    filter.onerror = () => {
      f.filterDone = 'error';
      settle(requestId, f);
    };
  }

  return {
    beforeRequest(details: RequestDetails): void {
      if (followed.has(details.requestId)) return;
      const body = bodyOf(details);
      candidates.set(details.requestId, { method: details.method, url: details.url, startTime: details.timeStamp, headers: [], ...(body === undefined ? {} : { body }) });
      if (candidates.size > MAX_DEBUGGER_CANDIDATES) candidates.delete(candidates.keys().next().value as string);
    },
    beforeSendHeaders(details: RequestDetails): void {
      const c = candidates.get(details.requestId);
      if (c) c.headers = toHeaders(details.requestHeaders);
    },
    /** Called in the blocking listener: the filter must exist before the body's first byte. */
    headersReceived(details: RequestDetails): void {
      const c = candidates.get(details.requestId);
      const status = details.statusCode ?? 0;
      // A redirect: the same request goes on, and is judged at its final response.
      if (!c || (status >= 300 && status < 400 && status !== 304)) return;
      candidates.delete(details.requestId);
      const responseHeaders = toHeaders(details.responseHeaders);
      if (!isMcpRequest({ headers: c.headers, body: c.body }) && !hasMcpHeader(responseHeaders)) return;
      if (deps.wanted(details, requestOf(c))) follow(details.requestId, c, status, responseHeaders);
    },
    completed(details: RequestDetails): void {
      candidates.delete(details.requestId);
      const f = followed.get(details.requestId);
      if (!f || f.outcome) return;
      f.outcome = { state: 'complete', time: details.timeStamp };
      settle(details.requestId, f);
    },
    errorOccurred(details: RequestDetails): void {
      candidates.delete(details.requestId);
      const f = followed.get(details.requestId);
      if (!f || f.outcome) return;
      const error = String(details.error ?? 'failed').slice(0, 1_024);
      f.outcome = error === ABORTED ? { state: 'cancelled', time: details.timeStamp, error } : { state: 'reset', time: details.timeStamp, error };
      // A request that failed before its body may never hear from its filter again.
      if (!f.filterDone) f.filterDone = 'error';
      settle(details.requestId, f);
    },
    /**
     * The capture stops (switched off, panel gone): each filter hands the rest of its response
     * back to Firefox untouched, and each stream still open ends, and how is not known.
     */
    detach(time: number): void {
      for (const [requestId, f] of [...followed]) {
        try {
          f.filter.disconnect();
        } catch {
          // Already closed by its own end.
        }
        end(requestId, f, { state: 'unknown', time });
      }
      candidates.clear();
    },
  };
}
