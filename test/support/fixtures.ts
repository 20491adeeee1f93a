/**
 * Generators for MCP traffic: JSON-RPC messages, SSE bodies and whole exchanges. Tests build
 * scenarios from these instead of pasting captures, so each rule's input is visible in the test.
 */
import { createAnalyzer, type Analyzer, type EventRecord, type Report } from '../../src/core/index';
import type { AnalysisOptions, BodyChunk, Exchange, Header, StreamEnd } from '../../src/core/model';

export const ORIGIN = 'http://127.0.0.1:3000';
export const MCP_URL = `${ORIGIN}/mcp`;

export interface SseSpec {
  id?: string | number;
  event?: string;
  /** A message object (JSON-encoded) or raw text. Omit for an id-only block. */
  data?: unknown;
  retry?: number;
  comment?: string;
}

/** Serialises SSE blocks exactly as a server writes them (`\n` line ends unless told). */
export function sse(blocks: readonly SseSpec[], eol = '\n'): string {
  let out = '';
  for (const block of blocks) {
    if (block.comment !== undefined) out += `: ${block.comment}${eol}`;
    if (block.event !== undefined) out += `event: ${block.event}${eol}`;
    if (block.id !== undefined) out += `id: ${block.id}${eol}`;
    if (block.retry !== undefined) out += `retry: ${block.retry}${eol}`;
    if (block.data !== undefined) {
      const text = typeof block.data === 'string' ? block.data : JSON.stringify(block.data);
      for (const line of text.split('\n')) out += `data: ${line}${eol}`;
    }
    if (block.comment === undefined || block.data !== undefined || block.id !== undefined) out += eol;
  }
  return out;
}

export const rpc = {
  call: (id: number, name = 'long_task', token: string | number = `tok-${id}`, args: Record<string, unknown> = { steps: 20 }) => ({
    jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: { progressToken: token } },
  }),
  progress: (token: string | number, progress: number, appSeq?: number) => ({
    jsonrpc: '2.0', method: 'notifications/progress',
    params: { progressToken: token, progress, ...(appSeq === undefined ? {} : { _meta: { app_seq: appSeq } }) },
  }),
  result: (id: number, appSeq?: number, extra: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }], ...extra, ...(appSeq === undefined ? {} : { _meta: { app_seq: appSeq } }) },
  }),
  error: (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32000, message: 'failed' } }),
  message: (data: unknown) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } }),
};

export interface ExchangeSpec {
  method?: string;
  url?: string;
  session?: string;
  headers?: Header[];
  body?: unknown;
  status?: number;
  contentType?: string;
  responseHeaders?: Header[];
  text?: string;
  end?: StreamEnd['state'];
  error?: string;
  start?: number;
}

/** Builds one exchange whose body arrives as a single chunk. */
export function exchange(spec: ExchangeSpec): Exchange {
  const start = spec.start ?? 1_700_000_000_000;
  const headers: Header[] = [...(spec.headers ?? [])];
  if (spec.session) headers.push({ name: 'Mcp-Session-Id', value: spec.session });
  const responseHeaders: Header[] = [{ name: 'Content-Type', value: spec.contentType ?? 'text/event-stream' }, ...(spec.responseHeaders ?? [])];
  if (spec.session) responseHeaders.push({ name: 'mcp-session-id', value: spec.session });
  const state = spec.end ?? 'complete';
  const end: StreamEnd = { state, time: start + 100 };
  if (spec.error !== undefined || state === 'reset') end.error = spec.error ?? 'net::ERR_CONNECTION_RESET';
  const ex: Exchange = {
    method: spec.method ?? (spec.body === undefined ? 'GET' : 'POST'),
    url: spec.url ?? MCP_URL,
    headers,
    startTime: start,
    status: spec.status ?? 200,
    responseHeaders,
    chunks: spec.text === undefined || spec.text === '' ? [] : [{ time: start + 50, data: spec.text }],
    end,
  };
  if (spec.body !== undefined) ex.body = typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body);
  return ex;
}

/** A GET resume of `session` that sends `Last-Event-ID`. */
export function resume(session: string, lastEventId: string | number, spec: ExchangeSpec = {}): Exchange {
  return exchange({ ...spec, method: 'GET', session, headers: [{ name: 'Last-Event-ID', value: String(lastEventId) }, ...(spec.headers ?? [])] });
}

/** A deterministic PRNG (mulberry32) so random chunkings can be replayed from their seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Re-cuts every body into random byte chunks (splitting UTF-8 sequences and CRLFs too). */
export function rechunk(exchanges: readonly Exchange[], random: () => number, maxChunk = 64): Exchange[] {
  const encoder = new TextEncoder();
  return exchanges.map((ex) => {
    const parts = ex.chunks.map((c) => (typeof c.data === 'string' ? encoder.encode(c.data) : c.data));
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    const chunks: BodyChunk[] = [];
    for (let at = 0; at < bytes.length;) {
      const size = 1 + Math.floor(random() * maxChunk);
      chunks.push({ time: ex.startTime + chunks.length, data: bytes.slice(at, at + size) });
      at += size;
    }
    return { ...ex, chunks };
  });
}

/**
 * Analyses one SSE body of a POST in session "s", cut at the byte offsets `cuts` (each taken
 * modulo the body's length), and gives its events and the report.
 */
export function analyseBody(body: string, cuts: readonly number[], options: AnalysisOptions = {}): { events: EventRecord[]; report: Report; learned: Analyzer['learned'] } {
  const analyzer = createAnalyzer(options);
  const bytes = new TextEncoder().encode(body);
  const index = analyzer.open({ method: 'POST', url: MCP_URL, headers: [{ name: 'mcp-session-id', value: 's' }], body: '', startTime: 0 });
  analyzer.respond(index, { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }] });
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)), bytes.length].sort((a, b) => a - b)) {
    if (cut <= at) continue;
    analyzer.chunk(index, { time: 0, data: bytes.slice(at, cut) });
    at = cut;
  }
  analyzer.end(index, { state: 'complete', time: 1 });
  return { events: [...analyzer.events(index)], report: analyzer.report(), learned: { ...analyzer.learned } };
}

/**
 * A report as text, for comparing analyses of the same bytes cut into other chunks. Re-cutting
 * invents new arrival times (see {@link rechunk}), and a finding's `evidence.time` is its event's
 * arrival, so that one field is left out; everything else must be byte-identical.
 */
export function reportText(report: Report): string {
  return JSON.stringify(report, (key, value: unknown) => (key === 'evidence' ? { ...(value as object), time: undefined } : value));
}

/**
 * A report without its findings' `evidence.entry`. The HAR reader numbers every exchange by its
 * entry, and a live capture names none, so a report of a live capture and one of the HAR it was
 * exported to differ in that field alone.
 */
export function withoutEntries(report: Report): Report {
  return JSON.parse(JSON.stringify(report, (key, value: unknown) => (key === 'evidence' ? { ...(value as object), entry: undefined } : value))) as Report;
}
