import { hasMcpHeader, isMcpRequest, type Header, type RequestInfo } from '../../core/index';
import { sniffBody, teeBody, type BodySink, type Sniffer } from './body-recorder';
import type { TapContext } from './context';
import { absoluteUrl, headerList, keptBody, mayBeLegacySse } from './request-info';

/** How one fetch is to be watched, or null on the dormant path (not MCP). */
interface Plan {
  request: RequestInfo;
  /** Known MCP from the request alone; otherwise a legacy SSE candidate decided by the response. */
  mcp: boolean;
}

/** The legacy HTTP+SSE transport opens with an `endpoint` event; any other first event says no. */
export const sniffEndpoint: Sniffer = (text) => {
  if (/(?:^|\n)event: ?endpoint\r?\n/.test(text)) return true;
  return /(?:^|\n)data:/.test(text) && /\r?\n\r?\n/.test(text) ? false : undefined;
};

function plan(ctx: TapContext, input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Plan | null {
  const { p } = ctx;
  const isRequest = input instanceof p.Request;
  const method = (init?.method ?? (isRequest ? (input as Request).method : 'GET')).toUpperCase();
  const headers: Header[] = headerList(init?.headers ?? (isRequest ? (input as Request).headers : undefined), p.Headers);
  // Only string bodies are looked at: that is what MCP clients send, and reading any other
  // body kind would cost work on traffic that is not ours.
  const rawBody = typeof init?.body === 'string' ? init.body : undefined;
  const mcp = isMcpRequest({ headers, body: rawBody });
  if (!mcp && !mayBeLegacySse(method, headers)) return null;
  const { body, cut } = keptBody(rawBody);
  if (cut) ctx.out.drop();
  const url = absoluteUrl(isRequest ? (input as Request).url : String(input), p.href());
  return { mcp, request: { method, url, headers, startTime: p.now(), ...(body === undefined ? {} : { body }) } };
}

/** Replaces `window.fetch` with a wrapper that records MCP exchanges and passes the rest through. */
export function tapFetch(win: Window & typeof globalThis, ctx: TapContext): void {
  const { p, out } = ctx;
  const original = p.fetch;

  function watch(thisArg: unknown, the: Plan, input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Promise<Response> {
    const stream = ctx.nextStream();
    let announced = false;
    const announce = (response?: Response) => {
      if (announced) return;
      announced = true;
      out.emit({ kind: 'open', stream, api: 'fetch', request: the.request });
      if (response) out.emit({ kind: 'response', stream, response: { status: response.status, headers: headerList(response.headers, p.Headers) } });
    };
    if (the.mcp) announce();

    return original.call(thisArg, input, init).then(
      (response) => {
        if (!announced && hasMcpHeader(headerList(response.headers, p.Headers))) announce();
        if (announced) out.emit({ kind: 'response', stream, response: { status: response.status, headers: headerList(response.headers, p.Headers) } });
        const body = response.body;
        if (!body || response.type === 'opaque' || response.type === 'opaqueredirect') {
          if (announced) out.emit({ kind: 'end', stream, end: { state: 'complete', time: p.now() } });
          return response;
        }
        const sink: BodySink = {
          chunk: (time, data) => {
            announce(response);
            out.emit({ kind: 'chunk', stream, time, data });
          },
          end: (end) => {
            announce(response);
            out.emit({ kind: 'end', stream, end });
          },
        };
        const pageBody = announced ? teeBody(p, body, sink) : sniffBody(p, body, sink, sniffEndpoint);
        return rewrap(ctx, response, pageBody);
      },
      (error: unknown) => {
        if (announced) {
          const aborted = typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
          out.emit({ kind: 'end', stream, end: { state: aborted ? 'cancelled' : 'reset', time: p.now(), error: String(error).slice(0, 500) } });
        }
        throw error;
      },
    );
  }

  const fetch = function fetch(this: unknown, input: Parameters<typeof original>[0], init?: RequestInit): Promise<Response> {
    let the: Plan | null = null;
    try {
      the = plan(ctx, input, init);
    } catch {
      the = null; // never let the tap break a page's request
    }
    const thisArg = this === undefined || this === null ? win : this;
    return the ? watch(thisArg, the, input, init) : original.call(thisArg, input, init);
  };
  win.fetch = fetch as typeof win.fetch;
}

/** A Response over the page's branch that looks like the original to the page. */
function rewrap(ctx: TapContext, original: Response, body: ReadableStream<Uint8Array>): Response {
  const copy = new ctx.p.Response(body, { status: original.status, statusText: original.statusText, headers: original.headers });
  for (const key of ['url', 'redirected', 'type'] as const) {
    Object.defineProperty(copy, key, { value: original[key], enumerable: true, configurable: true });
  }
  return copy;
}
