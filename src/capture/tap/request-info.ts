import type { Header } from '../../core/model';
import { MAX_HEADERS, MAX_REQUEST_BODY_CHARS, MAX_URL_CHARS } from '../../shared/tap-validation';

/** Headers of `fetch(input, init)`, as plain pairs, capped at MAX_HEADERS. */
export function headerList(source: HeadersInit | undefined | null, HeadersCtor: typeof Headers): Header[] {
  if (!source) return [];
  const out: Header[] = [];
  const list = source instanceof HeadersCtor ? source : new HeadersCtor(source);
  for (const [name, value] of list) {
    if (out.length >= MAX_HEADERS) break;
    out.push({ name, value });
  }
  return out;
}

/** A GET that asks for an event stream with no MCP header: maybe the legacy HTTP+SSE transport. */
export function mayBeLegacySse(method: string, headers: readonly Header[]): boolean {
  if (method !== 'GET') return false;
  for (const h of headers) if (h.name.toLowerCase() === 'accept' && h.value.includes('text/event-stream')) return true;
  return false;
}

/** Absolute URL, capped at MAX_URL_CHARS so the relay accepts it. */
export function absoluteUrl(url: string, base: string): string {
  let abs = url;
  try {
    abs = new URL(url, base).href;
  } catch {
    // Keep what the page passed; fetch will reject it anyway.
  }
  return abs.length > MAX_URL_CHARS ? abs.slice(0, MAX_URL_CHARS) : abs;
}

/** The body kept for the analysis: at most MAX_REQUEST_BODY_CHARS. `cut` tells whether it was cut. */
export function keptBody(body: string | undefined): { body?: string; cut: boolean } {
  if (body === undefined) return { cut: false };
  if (body.length <= MAX_REQUEST_BODY_CHARS) return { body, cut: false };
  return { body: body.slice(0, MAX_REQUEST_BODY_CHARS), cut: true };
}
