import { header, type Exchange, type RawHeaders } from './exchange.js';

/**
 * What Chrome writes for a body the proxy closed before its last chunk, for a connection the
 * peer reset, and for a request the page cancelled.
 */
const END_ERRORS = { cut: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING', reset: 'net::ERR_CONNECTION_RESET', aborted: 'net::ERR_ABORTED' } as const;

/**
 * Writes recorded exchanges as HAR 1.2, shaped like a Chrome/Firefox export, plus our fields:
 *
 * - entry `_chunks: [{ t, n }]`: when each body chunk arrived (ms since `startedDateTime`) and
 *   its byte length;
 * - `response._error` for a stream that did not complete. As Firefox does, `content.text` then
 *   holds the partial body received before the error (Chrome would give no content).
 */
export function toHar(exchanges: readonly Exchange[], creator = { name: 'mcp-stream-lens-recorder', version: '0.1.0' }) {
  const entries = [...exchanges].sort((a, b) => a.t0 - b.t0).map(toEntry);
  return { log: { version: '1.2', creator, entries } };
}

function toEntry(exchange: Exchange) {
  const { request, response } = exchange;
  const body = Buffer.concat(exchange.chunks.map((c) => c.bytes));
  const sent = ms(exchange.sentAt ?? 0);
  const headersAt = ms(response?.at ?? exchange.sentAt ?? 0);
  const ended = ms(exchange.endedAt ?? headersAt);
  const error = exchange.end === 'open' || exchange.end === 'complete' ? undefined : END_ERRORS[exchange.end];
  const url = new URL(request.url);
  return {
    startedDateTime: exchange.startedDateTime,
    time: ended,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: request.httpVersion,
      headers: nameValues(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: request.body.length,
      ...(request.body.length > 0 && {
        postData: { mimeType: header(request.headers, 'content-type') ?? '', text: request.body.toString('utf8') },
      }),
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: response ? `HTTP/${response.httpVersion}` : '',
      headers: nameValues(response?.headers ?? []),
      cookies: [],
      content: {
        size: body.length,
        mimeType: header(response?.headers ?? [], 'content-type') ?? 'x-unknown',
        text: body.toString('utf8'),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
      ...(error !== undefined && { _error: error }),
    },
    cache: {},
    timings: { send: sent, wait: ms(headersAt - sent), receive: ms(ended - headersAt) },
    _chunks: exchange.chunks.map((c) => ({ t: ms(c.t), n: c.bytes.length })),
  };
}

function nameValues(headers: RawHeaders) {
  return headers.map(([name, value]) => ({ name, value }));
}

/** Milliseconds, kept to microsecond precision (as browsers export them) and never negative. */
function ms(value: number): number {
  return Math.max(0, Math.round(value * 1000) / 1000);
}
