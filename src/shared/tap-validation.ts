/**
 * Shape and size validation of page-originated messages. The page is untrusted: any script on it
 * can post a message that claims to come from the tap. The relay runs every such message through
 * {@link validateTapBatch} and forwards only the clean copies it returns.
 */
import type { Header } from '../core/model';
import { PROTOCOL_VERSION, SOURCE, type TapApi, type TapItem, type TapLoss } from './messages';

/** Items in one tap batch; the tap flushes long before this. */
export const MAX_BATCH_ITEMS = 2_048;
/**
 * Bytes (or characters) of one chunk. Chromium hands over reads of up to a few hundred KB; the
 * tap splits only reads above this (into views, before it copies what it keeps).
 */
export const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
/** Bytes (or characters) of all chunks of one batch. */
export const MAX_BATCH_BYTES = 8 * 1024 * 1024;
/** Characters of a URL. */
export const MAX_URL_CHARS = 8 * 1024;
/** Characters of a request body the tap keeps (JSON-RPC requests are small). */
export const MAX_REQUEST_BODY_CHARS = 64 * 1024;
/** Headers per request or response, and characters per header name + value. */
export const MAX_HEADERS = 128;
export const MAX_HEADER_CHARS = 8 * 1024;
/** Characters of an error text or an HTTP method. */
export const MAX_SHORT_CHARS = 1_024;
/** Stream numbers a page may use (a counter; anything else is forged). */
export const MAX_STREAM_NUMBER = 2 ** 31;

/** The clean result: what to forward and how many items to count as rejected. */
export interface ValidatedBatch {
  items: TapItem[];
  rejected: number;
  /** The tap's cumulative drop counter, when the batch carried a sane one. */
  tapDropped: number | null;
  /** The tap's cumulative history-eviction counter, when the batch carried a sane one. */
  evicted: number | null;
}

const APIS: readonly TapApi[] = ['fetch', 'eventsource', 'xhr'];
const END_STATES = ['complete', 'reset', 'cancelled', 'open'] as const;

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isShort = (v: unknown, max = MAX_SHORT_CHARS): v is string => typeof v === 'string' && v.length <= max;
const isStream = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < MAX_STREAM_NUMBER;

/**
 * A page-made Uint8Array, checked by its tag: `instanceof` fails across worlds (the page's
 * constructor is not the content script's, and Firefox wraps it in an Xray).
 */
function asBytes(v: unknown): Uint8Array | null {
  if (!ArrayBuffer.isView(v) || Object.prototype.toString.call(v) !== '[object Uint8Array]') return null;
  return v as Uint8Array;
}
const sizeOf = (item: unknown): number => {
  if (!isPlain(item)) return 0;
  const data = item.data;
  if (typeof data === 'string') return data.length;
  return ArrayBuffer.isView(data) ? data.byteLength : 0;
};

function headers(v: unknown): Header[] | null {
  if (!Array.isArray(v) || v.length > MAX_HEADERS) return null;
  const out: Header[] = [];
  for (const h of v) {
    if (!isPlain(h) || typeof h.name !== 'string' || typeof h.value !== 'string') return null;
    if (h.name.length + h.value.length > MAX_HEADER_CHARS) return null;
    out.push({ name: h.name, value: h.value });
  }
  return out;
}

/** Returns a fresh, clean copy of one item, or null when it is malformed or oversized. */
export function validateTapItem(v: unknown): TapItem | null {
  if (!isPlain(v) || !isStream(v.stream)) return null;
  const stream = v.stream;
  switch (v.kind) {
    case 'open': {
      const r = v.request;
      if (!isPlain(r) || !APIS.includes(v.api as TapApi)) return null;
      if (!isShort(r.method, 32) || !isShort(r.url, MAX_URL_CHARS) || !isTime(r.startTime)) return null;
      const hs = headers(r.headers);
      if (!hs) return null;
      if (r.body !== undefined && !isShort(r.body, MAX_REQUEST_BODY_CHARS)) return null;
      const request = { method: r.method, url: r.url, headers: hs, startTime: r.startTime, ...(r.body === undefined ? {} : { body: r.body }) };
      return { kind: 'open', stream, api: v.api as TapApi, request };
    }
    case 'response': {
      const r = v.response;
      if (!isPlain(r) || !Number.isInteger(r.status) || (r.status as number) < 0 || (r.status as number) > 999) return null;
      const hs = headers(r.headers);
      return hs ? { kind: 'response', stream, response: { status: r.status as number, headers: hs } } : null;
    }
    case 'chunk': {
      if (!isTime(v.time)) return null;
      if (typeof v.data === 'string') return v.data.length <= MAX_CHUNK_BYTES ? { kind: 'chunk', stream, time: v.time, data: v.data } : null;
      const bytes = asBytes(v.data);
      return bytes && bytes.byteLength <= MAX_CHUNK_BYTES ? { kind: 'chunk', stream, time: v.time, data: bytes } : null;
    }
    case 'end': {
      const e = v.end;
      if (!isPlain(e) || !END_STATES.includes(e.state as (typeof END_STATES)[number])) return null;
      if (e.time !== undefined && !isTime(e.time)) return null;
      if (e.error !== undefined && !isShort(e.error)) return null;
      const end = { state: e.state as (typeof END_STATES)[number], ...(e.time === undefined ? {} : { time: e.time }), ...(e.error === undefined ? {} : { error: e.error as string }) };
      return { kind: 'end', stream, end };
    }
    default:
      return null;
  }
}

/**
 * Validates a message that claims to be a tap batch. A broken envelope (wrong version, not a
 * list, too many items or characters) rejects the whole message as one; inside a sound envelope
 * each bad item is rejected on its own.
 */
export function validateTapBatch(data: unknown): ValidatedBatch {
  const reject: ValidatedBatch = { items: [], rejected: 1, tapDropped: null, evicted: null };
  if (!isPlain(data) || data.source !== SOURCE.tap || data.v !== PROTOCOL_VERSION || data.type !== 'tap-batch') return reject;
  const { items } = data;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) return reject;
  let size = 0;
  for (const item of items) size += sizeOf(item);
  if (size > MAX_BATCH_BYTES) return { items: [], rejected: items.length, tapDropped: null, evicted: null };
  const clean: TapItem[] = [];
  for (const item of items) {
    const ok = validateTapItem(item);
    if (ok) clean.push(ok);
  }
  const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : null);
  return { items: clean, rejected: items.length - clean.length, tapDropped: count(data.dropped), evicted: count(data.evicted) };
}

/** Returns a clean copy of a `tap-lost` message's loss, or null when it is malformed. */
export function validateTapLoss(data: unknown): TapLoss | null {
  if (!isPlain(data) || data.source !== SOURCE.tap || data.v !== PROTOCOL_VERSION || data.type !== 'tap-lost') return null;
  return APIS.includes(data.api as TapApi) && isTime(data.time) ? { api: data.api as TapApi, time: data.time } : null;
}
