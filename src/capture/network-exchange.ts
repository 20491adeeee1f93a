import { hasMcpHeader, header, isMcpRequest, type Header, type RequestInfo } from '../core/index';
import { endsInsideEvent } from '../core/har/read-body';
import type { StreamEnd } from '../core/index';
import type { NetworkExchange } from '../shared/messages';

/** What the devtools page's browser reports of a finished request (they differ; see toNetworkExchange). */
export type NetworkReporter = 'chrome' | 'firefox';

/** Why a network-only exchange has no body, in the user's words (Chrome keeps none for them). */
export const CHROME_NO_BODY = "Chrome's network panel keeps no body for a Worker's or a reset stream; turn on \"Capture workers and early requests\" to capture it";

/** Characters of a body taken from a HAR entry; the rest is cut (it ended long ago anyway). */
export const MAX_NETWORK_BODY_CHARS = 1024 * 1024;
/** How far apart the tap's and the network panel's start times of one request may be. */
export const MATCH_WINDOW_MS = 3_000;

/** The fields of a HAR 1.2 entry that `onRequestFinished` hands over and we read. */
export interface HarEntryLike {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: Header[]; postData?: { text?: string } };
  response: { status: number; headers: Header[]; _error?: string | null };
  _error?: string | null;
}

/** Cheap test before the body is fetched: MCP headers, a JSON-RPC body, or an event stream. */
export function mayBeMcp(entry: HarEntryLike): boolean {
  const { request, response } = entry;
  if (isMcpRequest({ headers: request.headers, body: request.postData?.text }) || hasMcpHeader(response.headers)) return true;
  return request.method === 'GET' && (header(response.headers, 'content-type') ?? '').includes('text/event-stream');
}

const withoutFragment = (url: string) => url.split('#')[0]!;

/**
 * How a reported request ended. Chrome marks a reset (`_error`) and keeps no body for a Worker's
 * or a reset stream: that body is absent, never empty. Firefox keeps the partial body but marks
 * no reset, so its end is `unknown` unless the body stops inside an event (then it was cut).
 */
function endOf(entry: HarEntryLike, content: string | null, reporter: NetworkReporter): StreamEnd {
  const time = Date.parse(entry.startedDateTime) + entry.time;
  const error = entry._error ?? entry.response._error ?? undefined;
  const absent = content === null ? { bodyAbsent: reporter === 'chrome' ? CHROME_NO_BODY : (true as const) } : {};
  if (error) return { state: 'reset', time, error, ...absent };
  if (reporter === 'chrome') return { state: 'complete', time, ...absent };
  const isStream = (header(entry.response.headers, 'content-type') ?? '').toLowerCase().includes('text/event-stream');
  if (isStream && content !== null && endsInsideEvent(content)) return { state: 'reset', time, inferred: true };
  return { state: 'unknown', time, ...absent };
}

/**
 * Turns a finished request of the network panel into an exchange, or null when it is not MCP.
 */
export function toNetworkExchange(id: string, entry: HarEntryLike, content: string | null, reporter: NetworkReporter = 'chrome'): NetworkExchange | null {
  const { request, response } = entry;
  const body = request.postData?.text;
  const legacy = request.method === 'GET' && /^(?::[^\n]*\n)*event: ?endpoint\r?\n/.test(content ?? '');
  if (!isMcpRequest({ headers: request.headers, body }) && !hasMcpHeader(response.headers) && !legacy) return null;
  const startTime = Date.parse(entry.startedDateTime);
  const kept = content === null ? null : content.slice(0, MAX_NETWORK_BODY_CHARS);
  return {
    id,
    request: { method: request.method, url: request.url, headers: request.headers, startTime, ...(body === undefined ? {} : { body }) },
    response: { status: response.status, headers: response.headers },
    body: kept,
    end: endOf(entry, content, reporter),
  };
}

/** True when the network panel's exchange and a tap-recorded request are the same request. */
export function sameRequest(net: RequestInfo, tap: RequestInfo): boolean {
  if (net.method !== tap.method || withoutFragment(net.url) !== withoutFragment(tap.url)) return false;
  if (Math.abs(net.startTime - tap.startTime) > MATCH_WINDOW_MS) return false;
  for (const name of ['last-event-id', 'mcp-session-id']) {
    if ((header(net.headers, name) ?? '') !== (header(tap.headers, name) ?? '')) return false;
  }
  return net.body === undefined || tap.body === undefined || net.body === tap.body;
}
