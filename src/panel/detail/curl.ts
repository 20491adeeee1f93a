import type { RequestInfo } from '../../core/index';

/** Headers curl sets itself, or that would make the copied command lie about the body. */
const SKIPPED = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'keep-alive', 'transfer-encoding']);

/** POSIX shell single quotes: nothing inside is interpreted, a quote is closed, escaped, reopened. */
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The stream's request as a cURL command, as DevTools' "Copy as cURL" would give it, plus `-N`
 * so the event stream prints as it arrives.
 */
export function curlOf(request: RequestInfo): string {
  const parts = ['curl', '-N', quote(request.url)];
  if (request.method.toUpperCase() !== 'GET' || request.body !== undefined) parts.push('-X', quote(request.method));
  for (const h of request.headers) {
    if (SKIPPED.has(h.name.toLowerCase()) || h.name.startsWith(':')) continue;
    parts.push('-H', quote(`${h.name}: ${h.value}`));
  }
  if (request.body !== undefined) parts.push('--data-raw', quote(request.body));
  return parts.join(' ');
}
