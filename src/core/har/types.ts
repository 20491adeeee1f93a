/**
 * The parts of HAR 1.2 we read and write, plus our extension fields. HAR allows custom fields
 * that start with `_`; browsers already use `_error`, and we add three:
 *
 * - `entry._chunks`: how the response body arrived, `[{ t, n }]` = ms after `startedDateTime`
 *   and byte length. Cutting `content.text` by these lengths restores the live timing.
 * - `entry._sse`: the SSE events with their arrival times, for readers that do not parse SSE.
 * - `entry._end`: how the body ended (`complete`, `reset`, `cancelled`, `open`, `unknown`) and
 *   why, `inferred` when that was read from the body rather than recorded, and `bodyAbsent`
 *   when the recorder kept none of the body (the text is then empty, not what was sent).
 *
 * Other writers' fields that the reader understands are typed at the end of this file
 * ({@link WriterEntryFields}); test/fixtures/har/writers/README.md has what each writer records.
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
  _end?: { state: EndState; error?: string; inferred?: true; bodyAbsent?: true | string; bodyClipped?: string };
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

/** One message of Chrome DevTools' `_eventSourceMessages`; `time` is seconds since the epoch. */
export interface HarEventSourceMessage {
  time: number;
  eventName: string;
  eventId: string;
  data: string;
}

/**
 * Fields other writers put on an entry that the reader uses (everything else is ignored):
 *
 * - Chrome DevTools: `response._error` (`net::ERR_…`) and `_eventSourceMessages`;
 * - Playwright `recordHar`: `response._failureText` (`net::ERR_…`, with `content.size: -1`,
 *   no text and `timings.receive: -1`) and `content._file` (its `attach` mode);
 * - chrome-har: `_chunks` as `{ ts, bytes }` (ms after the page's `startedDateTime`, decoded
 *   bytes) and `request.postData.params` (a JSON body as `[{ name, value }]`, with no text).
 */
export interface WriterEntryFields {
  _error?: string;
  _failureText?: string;
  _eventSourceMessages?: HarEventSourceMessage[];
  _chunks?: { ts: number; bytes: number }[];
  pageref?: string;
  request: { postData?: { mimeType: string; text?: string; params?: { name: string; value: unknown }[] } };
  response: { _error?: string; _failureText?: string; content: { size: number; text?: string; _file?: string } };
}
