import type { Header } from '../core/index';

/** Header pairs in wire order and wire spelling. */
export type RawHeaders = [name: string, value: string][];

/** Hop-by-hop headers (RFC 9110 7.6.1): each hop, the client's and the server's, has its own. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'te', 'upgrade']);

/** Node's flat `rawHeaders` list as name/value pairs, keeping order and spelling. */
export function pairs(raw: readonly string[]): RawHeaders {
  const out: RawHeaders = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] ?? '', raw[i + 1] ?? '']);
  return out;
}

/** The end-to-end headers of `raw`: what a proxy passes on. */
export function endToEnd(raw: RawHeaders): RawHeaders {
  return raw.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()));
}

/** Pairs as the core's `{ name, value }` headers. */
export function asHeaders(raw: RawHeaders): Header[] {
  return raw.map(([name, value]) => ({ name, value }));
}
