import { legacySessionId } from '../read/detect';
import type { BodyChunk, Exchange, Header } from '../model';
import type { Report } from '../report';
import { escapeRegExp } from '../read/escape-regexp';

/**
 * Session ids are bearer tokens: whoever holds a live `Mcp-Session-Id` (or a legacy `?sessionId=`)
 * can talk to the server as that client. Exports replace each one with a pseudonym,
 * `redacted-1`, `redacted-2`… in first-seen order. A counter, not a hash: a hash of a short
 * secret can be brute-forced, and a fixed shape does not leak the secret's length. The same id
 * always gets the same pseudonym within one export, so a re-imported file groups its sessions
 * exactly as the original did.
 */
export const PSEUDONYM_PREFIX = 'redacted-';

/**
 * Ids at least this long are also replaced wherever they occur as bare text (bodies, other
 * headers, URL paths). Shorter ones are replaced only where they are a session id by position
 * (the header, the `sessionId=` query): a bare search for a test id like `s1` would rewrite
 * unrelated text, and an id that short is no secret anyway.
 */
export const MIN_BARE_ID_LENGTH = 8;

/** The real-to-pseudonym map of one export. */
export interface SessionPseudonyms {
  /** Real id → pseudonym, in first-seen order. */
  readonly ids: ReadonlyMap<string, string>;
  /** A string with every known id replaced (header values, URLs, report fields). */
  text(value: string): string;
}

/**
 * Learns the session ids of `exchanges` in the order they appear: each exchange's
 * `Mcp-Session-Id` request and response headers, its URL's `sessionId`, and any `sessionId=`
 * in its bodies (the legacy transport names its session in an `event: endpoint`).
 */
export function sessionPseudonyms(exchanges: readonly Exchange[]): SessionPseudonyms {
  const seen = new Set<string>();
  const learn = (id: string | undefined): void => {
    if (id) seen.add(id);
  };
  for (const exchange of exchanges) {
    for (const h of [...exchange.headers, ...exchange.responseHeaders]) if (isSessionHeader(h)) learn(h.value);
    learn(legacySessionId(exchange.url));
    for (const text of [exchange.body ?? '', bodyText(exchange.chunks)]) {
      for (const match of text.matchAll(QUERY_ID)) learn(decodeQuery(match[2]!));
    }
  }
  const ids = new Map<string, string>();
  let n = 0;
  for (const id of seen) {
    // A real id that happens to look like a pseudonym must not be merged with another session.
    let pseudonym: string;
    do pseudonym = `${PSEUDONYM_PREFIX}${++n}`;
    while (seen.has(pseudonym));
    ids.set(id, pseudonym);
  }
  const edits = replacerFor(ids, (s) => s);
  return { ids, text: (value) => (ids.size === 0 ? value : applyEdits(value, edits(value))) };
}

/** Copies of `exchanges` with every session id replaced: headers, URLs, request and response bodies. */
export function pseudonymizeExchanges(exchanges: readonly Exchange[], pseudonyms: SessionPseudonyms): Exchange[] {
  if (pseudonyms.ids.size === 0) return [...exchanges];
  // Bodies are bytes that need not be UTF-8; they are rewritten as binary strings (one char per
  // byte) so that invalid sequences survive untouched and chunk boundaries stay byte offsets.
  const bytes = replacerFor(pseudonyms.ids, (s) => binaryOf(new TextEncoder().encode(s)));
  const headers = (list: readonly Header[]): Header[] =>
    list.map((h) => ({ name: h.name, value: isSessionHeader(h) ? (pseudonyms.ids.get(h.value) ?? pseudonyms.text(h.value)) : pseudonyms.text(h.value) }));
  return exchanges.map((exchange) => {
    const out: Exchange = {
      ...exchange,
      url: pseudonyms.text(exchange.url),
      headers: headers(exchange.headers),
      responseHeaders: headers(exchange.responseHeaders),
      chunks: rewriteChunks(exchange.chunks, bytes),
      end: exchange.end.error === undefined ? exchange.end : { ...exchange.end, error: pseudonyms.text(exchange.end.error) },
    };
    if (exchange.body !== undefined) out.body = pseudonyms.text(exchange.body);
    return out;
  });
}

/**
 * The report with every session id replaced: session keys, stream URLs, `Last-Event-ID`s and
 * finding messages. With the pseudonyms of the exchanges it came from, it equals the report of
 * the pseudonymized exchanges.
 */
export function pseudonymizeReport(report: Report, pseudonyms: SessionPseudonyms): Report {
  if (pseudonyms.ids.size === 0) return report;
  const text = pseudonyms.text;
  return {
    ...report,
    sessions: report.sessions.map((session) => ({
      ...session,
      key: pseudonyms.ids.get(session.key) ?? text(session.key),
      streams: session.streams.map((s) => ({ ...s, url: text(s.url), lastEventId: s.lastEventId === null ? null : text(s.lastEventId), ...(s.error === undefined ? {} : { error: text(s.error) }) })),
      resumes: session.resumes.map((r) => ({ ...r, lastEventId: text(r.lastEventId) })),
      findings: session.findings.map((f) => ({ ...f, message: text(f.message) })),
    })),
  };
}

/** `?sessionId=VALUE` or `&sessionId=VALUE`: the legacy transport's session id (see detect.ts). */
const QUERY_ID = /([?&]sessionId=)([^&#\s"'<>\\]*)/g;

const isSessionHeader = (h: Header): boolean => h.name.toLowerCase() === 'mcp-session-id';

function decodeQuery(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A replaced span of a searched string. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * An id as a URL carries it. A hostile id may hold a lone surrogate, which `encodeURIComponent`
 * refuses with an error; a URL carries it as U+FFFD, as the UTF-8 encoder writes it.
 */
function uriFormOf(id: string): string {
  return encodeURIComponent(new TextDecoder().decode(new TextEncoder().encode(id)));
}

/**
 * Finds, in one pass, `sessionId=` values that are known ids and bare occurrences of long ids
 * (longest first, so an id that contains another wins). `encode` maps an id to the form it takes
 * in the searched text: itself, or its UTF-8 bytes as a binary string.
 */
function replacerFor(ids: ReadonlyMap<string, string>, encode: (s: string) => string): (value: string) => Edit[] {
  const bare = new Map<string, string>();
  const byQuery = new Map<string, string>();
  for (const [id, pseudonym] of ids) {
    byQuery.set(encode(id), pseudonym);
    byQuery.set(uriFormOf(id), pseudonym);
    if (id.length < MIN_BARE_ID_LENGTH) continue;
    bare.set(encode(id), pseudonym);
    bare.set(uriFormOf(id), pseudonym);
  }
  const alternatives = [...bare.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|');
  const pattern = new RegExp(`${QUERY_ID.source}${alternatives === '' ? '' : `|${alternatives}`}`, 'g');
  return (value) => {
    const edits: Edit[] = [];
    for (const match of value.matchAll(pattern)) {
      const start = match.index;
      const [whole, prefix, query] = match;
      if (prefix === undefined) {
        edits.push({ start, end: start + whole.length, text: bare.get(whole)! });
        continue;
      }
      const pseudonym = byQuery.get(query!) ?? byQuery.get(encode(decodeQuery(query!)));
      if (pseudonym !== undefined) edits.push({ start: start + prefix.length, end: start + whole.length, text: pseudonym });
      else if (alternatives !== '') {
        // An unknown value may still hold a long id (e.g. `sessionId=<id>-suffix`).
        for (const inner of query!.matchAll(new RegExp(alternatives, 'g'))) {
          const at = start + prefix.length + inner.index;
          edits.push({ start: at, end: at + inner[0].length, text: bare.get(inner[0])! });
        }
      }
    }
    return edits;
  };
}

function applyEdits(value: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += value.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + value.slice(at);
}

/**
 * Rewrites a body as one text, so an id split across two chunks is still found, then cuts it
 * again where the chunks ended. Each boundary moves with the text before it; one that fell inside
 * a replaced id moves to the end of its pseudonym.
 */
function rewriteChunks(chunks: readonly BodyChunk[], edit: (value: string) => Edit[]): BodyChunk[] {
  const encoder = new TextEncoder();
  const parts = chunks.map((c) => binaryOf(typeof c.data === 'string' ? encoder.encode(c.data) : c.data));
  const whole = parts.join('');
  const edits = edit(whole);
  if (edits.length === 0) return [...chunks];
  const rewritten = applyEdits(whole, edits);
  let next = 0; // the first edit not wholly before the boundary
  let shift = 0; // length change of the edits before it
  const moved = (offset: number): number => {
    while (next < edits.length && edits[next]!.end <= offset) {
      shift += edits[next]!.text.length - (edits[next]!.end - edits[next]!.start);
      next++;
    }
    const inside = edits[next];
    return inside !== undefined && inside.start < offset ? inside.start + shift + inside.text.length : offset + shift;
  };
  let end = 0;
  let from = 0;
  return chunks.map((chunk, i) => {
    end += parts[i]!.length;
    const to = i === chunks.length - 1 ? rewritten.length : moved(end);
    const data = bytesOf(rewritten.slice(from, to));
    from = to;
    return { time: chunk.time, data };
  });
}

/** The body as text, for finding ids only: a streaming decoder keeps split UTF-8 intact. */
function bodyText(chunks: readonly BodyChunk[]): string {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (const chunk of chunks) text += typeof chunk.data === 'string' ? chunk.data : decoder.decode(chunk.data, { stream: true });
  return text + decoder.decode();
}

function binaryOf(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return out;
}

function bytesOf(binary: string): Uint8Array {
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
