import type { ServerResponse } from 'node:http';
import { since, type Exchange, type ExchangeLog, type RawHeaders } from './exchange.js';

/**
 * Sends the status line and headers now, and records the headers exactly as they went out.
 *
 * Node adds headers of its own on the way out (`Connection`, `Keep-Alive`, `Date`,
 * `Transfer-Encoding`). The only place that holds the final block is the long-standing,
 * undocumented `_header` string (read by e.g. `on-headers` and `morgan`); when it is missing
 * we fall back to the headers we passed, which then lack only those additions.
 */
export function sendHead(exchange: Exchange, res: ServerResponse, status: number, statusText: string, headers: RawHeaders): void {
  res.writeHead(status, statusText, headers.flat());
  res.flushHeaders(); // an SSE client must see the headers before the first event
  const block = (res as unknown as { _header?: unknown })._header;
  const sent = typeof block === 'string' ? parseHeaderBlock(block) : headers;
  exchange.response = { status, statusText, httpVersion: '1.1', headers: sent, at: since(exchange) };
}

/** A whole small response written by the load balancer itself (413, 502). */
export function sendSimple(exchange: Exchange, res: ServerResponse, log: ExchangeLog, status: number, text: string): void {
  const body = Buffer.from(text);
  sendHead(exchange, res, status, '', [['content-type', 'text/plain'], ['content-length', String(body.length)]]);
  exchange.chunks.push({ t: since(exchange), bytes: body });
  res.end(body, () => log.finish(exchange, 'complete'));
}

/** `HTTP/1.1 200 OK\r\nName: value\r\n...\r\n\r\n` -> pairs, skipping the status line. */
function parseHeaderBlock(block: string): RawHeaders {
  return block
    .split('\r\n')
    .slice(1)
    .filter((line) => line.includes(':'))
    .map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
}
