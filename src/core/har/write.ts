import type { Har, HarEntry, HarHeader, HarSseEvent } from './types';
import { header, type Exchange, type Header, type StreamEnd } from '../model';
import { pseudonymizeExchanges, sessionPseudonyms } from './pseudonyms';
import { createSseFramer } from '../read/sse';

/**
 * Headers whose values are credentials: exports blank them unless the user opts out. Session ids
 * are credentials too, but are pseudonymized rather than blanked (`pseudonymizeSessions`), since
 * the analysis groups by them.
 */
export const DEFAULT_REDACTED_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];
export const REDACTED = '[redacted]';

export interface HarWriteOptions {
  /** `true` (the default) redacts {@link DEFAULT_REDACTED_HEADERS}; a list redacts those names; `false` nothing. */
  redact?: boolean | readonly string[];
  /**
   * Replace session ids (`Mcp-Session-Id`, the legacy `?sessionId=`) with `redacted-1`,
   * `redacted-2`… in headers, URLs and bodies, consistently, so the file still groups its
   * sessions as the original did (see session-pseudonyms.ts). Defaults to on unless `redact` is
   * `false`; set it to `false` to keep the real ids while still blanking credentials.
   */
  pseudonymizeSessions?: boolean;
  creator?: { name: string; version: string };
}

/**
 * Writes exchanges as HAR 1.2 that any HAR viewer opens, with `_chunks`, `_sse` and `_end`
 * (see har-types.ts) so that our own reader restores the live timing exactly.
 */
export function writeHar(exchanges: readonly Exchange[], options: HarWriteOptions = {}): Har {
  const redacted = new Set(
    (options.redact === false ? [] : options.redact === true || options.redact === undefined ? DEFAULT_REDACTED_HEADERS : options.redact)
      .map((name) => name.toLowerCase()),
  );
  const redact = (headers: readonly Header[]): HarHeader[] =>
    headers.map((h) => ({ name: h.name, value: redacted.has(h.name.toLowerCase()) ? REDACTED : h.value }));
  const pseudonymize = options.pseudonymizeSessions ?? options.redact !== false;
  const written = pseudonymize ? pseudonymizeExchanges(exchanges, sessionPseudonyms(exchanges)) : exchanges;
  return {
    log: {
      version: '1.2',
      creator: options.creator ?? { name: 'mcp-stream-lens', version: '0.1.0' },
      entries: written.map((exchange) => entryOf(exchange, redact)),
    },
  };
}

function entryOf(exchange: Exchange, redact: (headers: readonly Header[]) => HarHeader[]): HarEntry {
  const encoder = new TextEncoder();
  const parts = exchange.chunks.map((c) => (typeof c.data === 'string' ? encoder.encode(c.data) : c.data));
  const size = parts.reduce((n, p) => n + p.length, 0);
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  const endTime = exchange.end.time ?? exchange.chunks.at(-1)?.time ?? exchange.startTime;
  const mimeType = header(exchange.responseHeaders, 'content-type') ?? '';
  const content: HarEntry['response']['content'] = { size, mimeType };
  const text = decodeStrict(bytes);
  if (text === undefined) {
    content.text = encodeBase64(bytes);
    content.encoding = 'base64';
  } else if (size > 0) {
    content.text = text;
  }
  const entry: HarEntry = {
    startedDateTime: new Date(exchange.startTime).toISOString(),
    time: Math.max(0, endTime - exchange.startTime),
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      headers: redact(exchange.headers),
      queryString: queryOf(exchange.url),
      cookies: [],
      headersSize: -1,
      bodySize: exchange.body === undefined ? 0 : encoder.encode(exchange.body).length,
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: redact(exchange.responseHeaders),
      cookies: [],
      content,
      redirectURL: '',
      headersSize: -1,
      bodySize: size,
    },
    cache: {},
    timings: { send: 0, wait: Math.max(0, (exchange.chunks[0]?.time ?? endTime) - exchange.startTime), receive: 0 },
    _chunks: exchange.chunks.map((c, i) => ({ t: c.time - exchange.startTime, n: parts[i]!.length })),
    _end: endOf(exchange.end),
  };
  if (exchange.body !== undefined) {
    entry.request.postData = { mimeType: header(exchange.headers, 'content-type') ?? 'application/json', text: exchange.body };
  }
  if (exchange.end.state === 'reset' || exchange.end.state === 'cancelled') entry.response._error = exchange.end.error ?? exchange.end.state;
  if (mimeType.toLowerCase().startsWith('text/event-stream')) entry._sse = sseEventsOf(exchange);
  return entry;
}

/**
 * How the body ended, with what the recorder did not see: an absent body written as an empty one
 * would read back as a stream that sent nothing, which is evidence of loss the capture never had.
 */
function endOf(end: StreamEnd): NonNullable<HarEntry['_end']> {
  const out: NonNullable<HarEntry['_end']> = { state: end.state };
  if (end.error !== undefined) out.error = end.error;
  if (end.inferred) out.inferred = true;
  if (end.bodyAbsent !== undefined) out.bodyAbsent = end.bodyAbsent;
  if (end.bodyClipped !== undefined) out.bodyClipped = end.bodyClipped;
  return out;
}

function sseEventsOf(exchange: Exchange): HarSseEvent[] {
  const events: HarSseEvent[] = [];
  const framer = createSseFramer((e) => {
    if (e.truncated) return;
    const out: HarSseEvent = { t: e.time - exchange.startTime, data: e.data };
    if (e.id !== undefined) out.id = e.id;
    if (e.event !== undefined) out.event = e.event;
    if (e.retry !== undefined) out.retry = e.retry;
    events.push(out);
  }, () => undefined);
  for (const chunk of exchange.chunks) framer.push(chunk.data, chunk.time);
  if (exchange.end.state !== 'open') framer.finish(exchange.end.time ?? exchange.startTime);
  return events;
}

function queryOf(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function decodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
