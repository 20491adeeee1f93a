/**
 * The parts of HAR 1.2 we read and write, plus our extension fields. HAR allows custom fields
 * that start with `_`; browsers already use `_error`, and we add three:
 *
 * - `entry._chunks`: how the response body arrived, `[{ t, n }]` = ms after `startedDateTime`
 *   and byte length. Cutting `content.text` by these lengths restores the live timing.
 * - `entry._sse`: the SSE events with their arrival times, for readers that do not parse SSE.
 * - `entry._end`: how the body ended (`complete`, `reset`, `cancelled`, `open`) and why.
 */
import type { EndState } from '../model';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarSseEvent {
  t: number;
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: HarHeader[];
    cookies: unknown[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: unknown[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _chunks?: { t: number; n: number }[];
  _sse?: HarSseEvent[];
  _end?: { state: EndState; error?: string };
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}
