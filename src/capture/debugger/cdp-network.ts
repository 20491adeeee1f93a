import { hasMcpHeader, isMcpRequest, type Header } from '../../core/index';
import type { CapturedItem, RelayCounters } from '../../shared/messages';
import { MAX_CHUNK_BYTES, MAX_REQUEST_BODY_CHARS } from '../../shared/tap-validation';

/** Requests of one tab the debugger follows at once; past it new ones are dropped and counted. */
export const MAX_DEBUGGER_STREAMS = 10_000;
/** Requests not yet known to be MCP, kept until their response says; the oldest go first. */
export const MAX_DEBUGGER_CANDIDATES = 256;

/** The CDP `Network` events read here (the fields used). Times: `timestamp` monotonic s, `wallTime` epoch s. */
export interface CdpRequest {
  requestId: string;
  request: { url: string; method: string; headers: Record<string, string>; postData?: string };
  timestamp: number;
  wallTime: number;
}

interface Followed {
  stream: number;
  /** Epoch ms at CDP monotonic time 0 for this request: turns event timestamps into times. */
  epochAt0: number;
  decoder: TextDecoder;
  /**
   * While streaming is being enabled: what came meanwhile (data chunks, the end), held so that
   * the buffered data goes first. A short response may finish before the command answers.
   */
  held: (() => void)[] | null;
  /** Bytes of body seen, to tell a body that was never streamed from an empty one. */
  bytes: number;
}

const toHeaders = (h: Record<string, unknown> | undefined): Header[] =>
  Object.entries(h ?? {}).filter(([, v]) => typeof v === 'string').map(([name, value]) => ({ name, value: value as string }));

function decodeBase64(data: string): Uint8Array {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Turns the CDP Network events of one debugger session (a Worker of the inspected tab) into the
 * capture's items, as the page tap would record them: open, response, chunks with their arrival
 * time and length, and how the stream ended. Only MCP requests are followed (by their request,
 * or failing that by their response's MCP headers); `enableBody` asks CDP to stream one body.
 */
export function createCdpNetwork(deps: {
  nextStream: () => number;
  emit: (item: CapturedItem) => void;
  drop: () => void;
  enableBody: (requestId: string) => Promise<string | null>;
  /** The whole body of a finished request (`Network.getResponseBody`), base64; null when gone. */
  wholeBody: (requestId: string) => Promise<string | null>;
  /**
   * Open a followed request at its response, not when it is sent (the page target's requests,
   * which the tap may copy too: its copy then comes first and is the one kept, see twins.ts).
   */
  openAtResponse?: boolean;
}) {
  const followed = new Map<string, Followed>();
  const candidates = new Map<string, CdpRequest>();
  let streams = 0;

  const isMcp = (r: CdpRequest) => isMcpRequest({ headers: toHeaders(r.request.headers), body: r.request.postData });

  function follow(r: CdpRequest): Followed | undefined {
    if (streams >= MAX_DEBUGGER_STREAMS) return void deps.drop();
    streams += 1;
    const f: Followed = { stream: deps.nextStream(), epochAt0: r.wallTime * 1000 - r.timestamp * 1000, decoder: new TextDecoder(), held: null, bytes: 0 };
    followed.set(r.requestId, f);
    const body = r.request.postData?.slice(0, MAX_REQUEST_BODY_CHARS);
    deps.emit({
      kind: 'open',
      stream: f.stream,
      api: 'fetch',
      request: { method: r.request.method, url: r.request.url, headers: toHeaders(r.request.headers), startTime: r.wallTime * 1000, ...(body === undefined ? {} : { body }) },
    });
    return f;
  }

  function chunk(f: Followed, time: number, bytes: Uint8Array): void {
    if (f.held) return void f.held.push(() => chunk(f, time, bytes));
    if (bytes.byteLength > MAX_CHUNK_BYTES) return deps.drop();
    f.bytes += bytes.byteLength;
    deps.emit({ kind: 'chunk', stream: f.stream, time, bytes: bytes.byteLength, text: f.decoder.decode(bytes, { stream: true }) });
  }

  function startBody(requestId: string, f: Followed, time: number): void {
    // Data received before streaming was enabled comes back buffered, ahead of any later chunk.
    f.held = [];
    void deps.enableBody(requestId).then(async (buffered) => {
      const held = f.held ?? [];
      f.held = null;
      if (buffered) chunk(f, time, decodeBase64(buffered));
      else if (buffered === null) {
        // Streaming could not be enabled (the request had finished): its whole body, if CDP kept it.
        const whole = await deps.wholeBody(requestId);
        if (whole) chunk(f, time, decodeBase64(whole));
      }
      for (const step of held) step();
    });
  }

  function end(requestId: string, endItem: CapturedItem & { kind: 'end' }): void {
    const f = followed.get(requestId);
    if (!f) return;
    if (f.held) return void f.held.push(() => end(requestId, endItem));
    followed.delete(requestId);
    const tail = f.decoder.decode();
    if (tail) deps.emit({ kind: 'chunk', stream: f.stream, time: endItem.end.time ?? 0, bytes: 0, text: tail });
    deps.emit({ ...endItem, stream: f.stream });
  }

  return {
    event(method: string, params: Record<string, unknown>): void {
      const requestId = params.requestId as string;
      if (typeof requestId !== 'string') return;
      const f = followed.get(requestId);
      const timeOf = (ts: unknown, at: Followed) => (typeof ts === 'number' ? at.epochAt0 + ts * 1000 : Date.now());
      if (method === 'Network.requestWillBeSent') {
        const r = params as unknown as CdpRequest;
        if (!r.request || typeof r.wallTime !== 'number') return;
        if (f) return; // a redirect: the same request goes on
        if (!deps.openAtResponse && isMcpRequest({ headers: toHeaders(r.request.headers), body: r.request.postData })) follow(r);
        else {
          candidates.set(requestId, r);
          if (candidates.size > MAX_DEBUGGER_CANDIDATES) {
            const [oldest, held] = candidates.entries().next().value as [string, CdpRequest];
            candidates.delete(oldest);
            // An MCP request held for its response is a loss when it goes; a maybe-MCP one is not known to be.
            if (isMcp(held)) deps.drop();
          }
        }
      } else if (method === 'Network.responseReceived') {
        const response = params.response as { status: number; headers: Record<string, string> } | undefined;
        if (!response) return;
        const headers = toHeaders(response.headers);
        let at = f;
        const candidate = candidates.get(requestId);
        if (!at && candidate) {
          candidates.delete(requestId);
          if (hasMcpHeader(headers) || isMcp(candidate)) at = follow(candidate);
        }
        if (!at) return;
        deps.emit({ kind: 'response', stream: at.stream, response: { status: response.status, headers } });
        startBody(requestId, at, timeOf(params.timestamp, at));
      } else if (method === 'Network.dataReceived') {
        // Without `data`, streaming is not on yet: those bytes come back as the buffered data.
        if (f && typeof params.data === 'string') chunk(f, timeOf(params.timestamp, f), decodeBase64(params.data));
      } else if (method === 'Network.loadingFinished') {
        candidates.delete(requestId);
        if (f) end(requestId, { kind: 'end', stream: f.stream, end: { state: 'complete', time: timeOf(params.timestamp, f) } });
      } else if (method === 'Network.loadingFailed') {
        candidates.delete(requestId);
        if (!f) return;
        const time = timeOf(params.timestamp, f);
        const error = String(params.errorText ?? 'failed').slice(0, 1_024);
        end(requestId, { kind: 'end', stream: f.stream, end: params.canceled === true ? { state: 'cancelled', time, error } : { state: 'reset', time, error } });
      }
    },
    /** The debugger went away: every stream still open ends, and how is not known. */
    detach(time: number): void {
      for (const requestId of [...followed.keys()]) end(requestId, { kind: 'end', stream: 0, end: { state: 'unknown', time } });
      candidates.clear();
    },
  };
}

/** Counters of the debugger's copy, in the relay's terms (its items are numbered like a relay's). */
export const debuggerCounters = (sent: number, dropped: number): RelayCounters => ({ sent, rejected: 0, tapDropped: dropped });
