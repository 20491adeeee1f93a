import type { Header, RequestInfo, ResponseInfo } from '../core/index';

/** The fetch signature the SDK's client transports take. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A JSON-RPC request id. */
export type RequestId = string | number;

/** A request body above this is not read for its request ids (MCP requests are small JSON). */
const MAX_READ_BODY_CHARS = 4 * 1024 * 1024;

/** Wall-clock milliseconds with fractions, as the core's chunk times are. */
export const now = (): number => performance.timeOrigin + performance.now();

/** The request half of an exchange, as the core's analyzer takes it. */
export function requestInfo(input: string | URL | Request, init: RequestInit | undefined): RequestInfo {
  const request = typeof input === 'object' && 'url' in input && !(input instanceof URL) ? input : undefined;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const info: RequestInfo = {
    method: (init?.method ?? request?.method ?? 'GET').toUpperCase(),
    url,
    headers: headerList(new Headers(init?.headers ?? request?.headers)),
    startTime: now(),
  };
  if (typeof init?.body === 'string') info.body = init.body;
  return info;
}

export function responseInfo(response: Response): ResponseInfo {
  return { status: response.status, headers: headerList(response.headers) };
}

function headerList(headers: Headers): Header[] {
  const list: Header[] = [];
  headers.forEach((value, name) => list.push({ name, value }));
  return list;
}

/** The ids of the JSON-RPC requests a POST body carries (one message or a batch). */
export function requestIdsOf(body: string | undefined): RequestId[] {
  if (body === undefined || body.length > MAX_READ_BODY_CHARS) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: RequestId[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof message !== 'object' || message === null || !('method' in message)) continue;
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}
