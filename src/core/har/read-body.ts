import { isRecord } from '../read/jsonrpc';
import type { BodyChunk } from '../model';
import type { HarReadOptions } from './read';

/** What a HAR entry holds of its response body. */
export interface BodyRead {
  chunks: BodyChunk[];
  /** The writer kept none of the body (see `StreamEnd.bodyAbsent`). */
  absent: boolean;
  /** The body as text, for the end inference (undefined when it was not kept as bytes). */
  text?: string;
}

/** Where an entry's times start: its own `startedDateTime`, and its page's (chrome-har's `_chunks`). */
export interface EntryTimes {
  start: number;
  end: number;
  pageStart?: number;
}

type Problem = (message: string) => void;

/**
 * Reads the body of one entry, from the first of these that it has:
 *
 * - `content.text` (base64 when `content.encoding` says so), cut by `_chunks` when those add up;
 * - `content._file`, Playwright's body stored beside the HAR (its `attach` mode);
 * - our `_sse` events, or Chrome DevTools' `_eventSourceMessages`, each at its own time (the
 *   body then still counts as absent: that list is not always complete);
 * - nothing: then the body is absent when the writer shows there was one (`content.size` not 0,
 *   Playwright's `size: -1`), or gives no size for an exchange that failed; empty otherwise.
 */
export function readBody(entry: Record<string, unknown>, content: Record<string, unknown>, times: EntryTimes, failed: boolean, options: HarReadOptions, problem: Problem): BodyRead {
  if (typeof content.text === 'string' && !(content.text === '' && typeof content._file === 'string')) {
    if (content.text === '') return { chunks: [], absent: false, text: '' };
    if (content.encoding !== 'base64') return { chunks: cutByChunks(content.text, entry._chunks, times, problem), absent: false, text: content.text };
    const decoded = decodeBase64(content.text);
    if (decoded) return { chunks: cutByChunks(decoded, entry._chunks, times, problem), absent: false, text: utf8(decoded) };
    problem('content.text is not valid base64; body left out');
    return { chunks: [], absent: true };
  }
  if (typeof content._file === 'string') {
    const bytes = options.loadFile?.(content._file);
    if (bytes) return { chunks: cutByChunks(bytes, entry._chunks, times, problem), absent: false, text: utf8(bytes) };
    problem(`content._file ${JSON.stringify(content._file)} could not be read; body left out`);
    return { chunks: [], absent: true };
  }
  if (Array.isArray(entry._sse)) return { chunks: sseToChunks(entry._sse, times.start, problem), absent: false };
  // The body itself was not kept, and DevTools' list can miss events (measured: 0 of 2, 0 of 3
  // and 5 of 6 in the writer fixtures): its events are evidence, their absence is not.
  if (Array.isArray(entry._eventSourceMessages)) return { chunks: eventSourceToChunks(entry._eventSourceMessages, times.end, problem), absent: true };
  // `size` counts the bytes the recorder received: 0 is an empty body, however the exchange
  // ended; any other value (Playwright's -1 included) is a body it did not keep.
  const size = content.size;
  return { chunks: [], absent: typeof size === 'number' ? size !== 0 : failed };
}

/**
 * Restores live timing from `_chunks`; without it (or if it does not add up) one chunk at the
 * end. Two shapes are read: ours, `{ t, n }` (ms after the entry's start, bytes), and
 * chrome-har's, `{ ts, bytes }` (ms after its page's start; zero-byte chunks included).
 */
function cutByChunks(body: Uint8Array | string, chunks: unknown, times: EntryTimes, problem: Problem): BodyChunk[] {
  if (!Array.isArray(chunks)) return [{ time: times.end, data: body }];
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const pieces = chunks.map((c) => chunkOf(c, times));
  const total = pieces.every((p) => p !== undefined) ? pieces.reduce((sum, p) => sum + p!.n, 0) : -1;
  if (total !== bytes.length) {
    problem('_chunks does not add up to the body; its timing was ignored');
    return [{ time: times.end, data: body }];
  }
  const out: BodyChunk[] = [];
  let offset = 0;
  for (const { time, n } of pieces as { time: number; n: number }[]) {
    out.push({ time, data: bytes.subarray(offset, offset + n) });
    offset += n;
  }
  return out;
}

function chunkOf(c: unknown, times: EntryTimes): { time: number; n: number } | undefined {
  if (!isRecord(c)) return undefined;
  if (isTime(c.t) && isLength(c.n)) return { time: times.start + c.t, n: c.n };
  if (isTime(c.ts) && isLength(c.bytes)) return { time: (times.pageStart ?? times.start) + c.ts, n: c.bytes };
  return undefined;
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isLength = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** A HAR with only our `_sse` events (no body text): write each event back as SSE at its time. */
function sseToChunks(events: unknown[], startTime: number, problem: Problem): BodyChunk[] {
  const out: BodyChunk[] = [];
  for (const e of events) {
    if (!isRecord(e) || typeof e.data !== 'string' || !isTime(e.t)) {
      problem('an _sse event without data or t was left out');
      continue;
    }
    out.push({ time: startTime + e.t, data: sseText(e.event, e.id, e.retry, e.data) });
  }
  return out;
}

/**
 * Chrome DevTools' `_eventSourceMessages` (`{ time, eventName, eventId, data }`, `time` in
 * seconds since the epoch) written back as SSE, each at its own time. DevTools keeps them even
 * when it kept no body text (a reset or cancelled stream).
 */
function eventSourceToChunks(messages: unknown[], endTime: number, problem: Problem): BodyChunk[] {
  const out: BodyChunk[] = [];
  for (const m of messages) {
    if (!isRecord(m) || typeof m.data !== 'string') {
      problem('an _eventSourceMessages item without data was left out');
      continue;
    }
    const time = isTime(m.time) ? m.time * 1000 : endTime;
    // DevTools names an unnamed event "message", as EventSource does; SSE means the same by it.
    const name = m.eventName === 'message' ? undefined : m.eventName;
    out.push({ time, data: sseText(name, m.eventId === '' ? undefined : m.eventId, undefined, m.data) });
  }
  return out;
}

function sseText(event: unknown, id: unknown, retry: unknown, data: string): string {
  let text = '';
  if (typeof event === 'string') text += `event: ${oneLine(event)}\n`;
  if (typeof id === 'string') text += `id: ${oneLine(id)}\n`;
  if (typeof retry === 'number' && Number.isFinite(retry)) text += `retry: ${Math.trunc(retry)}\n`;
  for (const line of data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Field values cannot hold line breaks in SSE; a hostile file must not forge extra fields. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

function decodeBase64(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/\s+/g, ''));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** How much of a body's end is scanned for a cut event; the state after its last blank line is all that matters. */
const TAIL_CHARS = 64 * 1024;

/**
 * True when an SSE body stops inside an event: after its last blank line there is a field line
 * (`data:`, `id:`, ...) that no blank line dispatched. A writer that marks no error (Firefox)
 * still shows a cut this way.
 */
export function endsInsideEvent(text: string): boolean {
  const lines = text.slice(-TAIL_CHARS).split(/\r\n|\r|\n/);
  // A sliced tail may start inside a line; that fragment tells nothing.
  if (text.length > TAIL_CHARS) lines.shift();
  // What follows the last line end: '' or a line cut short.
  const cutShort = lines.pop() ?? '';
  let pending = false;
  for (const line of lines) {
    if (line === '') pending = false;
    else if (!line.startsWith(':')) pending = true;
  }
  return pending || (cutShort !== '' && !cutShort.startsWith(':'));
}
