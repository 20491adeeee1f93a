import { createSession, joinSession, sessionFromEndpoint, sessionFromHeaders, statelessRef, type SessionRef } from './analysis/grouping';
import { readBlocks, readEvent, type Readers } from './analysis/ingest';
import { buildReport } from './analysis/report-build';
import type { BodyKind, EventRecord, SessionState, StreamState } from './analysis/state';
import { header, type AnalysisOptions, type BodyChunk, type Exchange, type RequestInfo, type ResponseInfo, type StreamEnd } from './model';
import { compilePlan } from './read/block-plan';
import { createBlockTemplates } from './read/block-template';
import { hasMcpHeader, isMcpRequest, looksLikeJsonRpc } from './read/detect';
import { createFactReader } from './read/facts';
import { createShapeParser } from './read/json-shapes';
import { keepTreeFor } from './read/message-reads';
import { isJsonPointer, pointerPath } from './read/sequence';
import { createSseFramer, type FedBlock, type SseEvent } from './read/sse';
import type { Report } from './report';
import { NO_EVENTS, type EventTable } from './store/event-table';
import { createStorage, type StoreChoice } from './store/storage';

/**
 * The incremental analysis engine. Captures feed it exchanges as they happen; `report()` can be
 * asked at any moment and costs what the sessions' resumes and findings cost, not what the events
 * cost, because every per-event rule ran when its event arrived.
 */
export interface Analyzer {
  /** Starts an exchange; returns its stream index, which the report uses. */
  open(request: RequestInfo): number;
  respond(stream: number, response: ResponseInfo): void;
  /**
   * Feeds one piece of the body. Returns where the chunk's complete SSE events end in its text:
   * its length when it ends on an event's end, the start of the unfinished event it ends in, or
   * -1 when it ends none (or the body is not an event stream, or is not analysed). Everything
   * before that point can be cut off and the rest fed to a fresh analysis with the same events
   * to come; the panel's event cap cuts there.
   */
  chunk(stream: number, chunk: BodyChunk): number;
  end(stream: number, end: StreamEnd): void;
  /**
   * The report so far. With `final`, the input is complete (a file, a finished recording), and the
   * findings about it as a whole are added: `no-mcp-traffic` when it held none.
   */
  report(options?: { final?: boolean }): Report;
  /** The events of one stream so far (empty for non-MCP or unknown streams). */
  events(stream: number): EventTable;
  /** The session key of a stream, once known. */
  sessionOf(stream: number): string | undefined;
  /** What the learned readers read: blocks a template matched, payloads a learned shape parsed. For tests and benchmarks. */
  readonly learned: { readonly blocks: number; readonly payloads: number };
}

export function createAnalyzer(options: AnalysisOptions = {}): Analyzer {
  const pointers = options.appSeqPointers ?? [];
  const readers = createReaders(pointers, options.learnedReaders ?? true);
  const storage = createStorage(storeChoice(options.store), options.keepPayloads ?? true);
  const streams: StreamState[] = [];
  const sessions = new Map<string, SessionState>();
  const idAt = (stream: number, event: number): string | undefined => streams[stream]!.events.idAt(event);

  const join = (stream: StreamState, ref: SessionRef): void => {
    let session = sessions.get(ref.key);
    if (!session) sessions.set(ref.key, (session = createSession(ref, storage.ids(idAt))));
    stream.mcp = true;
    joinSession(session, stream);
  };

  const onEvent = (stream: StreamState, event: SseEvent, block: FedBlock | undefined): void => {
    if (stream.mcp === false) return;
    if (!stream.session) {
      // Only a GET stream with no session header gets here: its first event decides.
      if (event.event === 'endpoint') join(stream, sessionFromEndpoint(stream, event.data));
      else if (stream.mcp || looksLikeJsonRpc(event.data)) join(stream, statelessRef(stream));
      else {
        stream.mcp = false;
        return;
      }
    }
    readEvent(readers, stream, stream.session!, event, block);
  };

  const settleSession = (stream: StreamState, final: boolean): void => {
    if (stream.session || stream.mcp === false) return;
    const ref = sessionFromHeaders(stream);
    if (ref) return join(stream, ref);
    // A GET stream may still name its legacy session in its first event.
    if (!final && stream.bodyKind === 'sse' && stream.request.method === 'GET') return;
    if (stream.mcp) join(stream, statelessRef(stream));
    else if (final) stream.mcp = false;
  };

  const get = (index: number): StreamState | undefined => streams[index];

  return {
    open(request) {
      const stream: StreamState = {
        index: streams.length,
        request,
        response: undefined,
        end: { state: 'open' },
        lastEventId: header(request.headers, 'last-event-id') ?? null,
        mcp: isMcpRequest(request) ? true : undefined,
        session: undefined,
        bodyKind: 'other',
        framer: undefined,
        jsonParts: [],
        events: storage.table(),
        completeEvents: 0,
        seqCursors: new Map(),
        requestKeys: [],
        findings: [],
        reported: undefined,
      };
      streams.push(stream);
      return stream.index;
    },
    respond(index, response) {
      const stream = get(index);
      if (!stream || stream.response) return;
      stream.response = response;
      if (hasMcpHeader(response.headers)) stream.mcp = true;
      stream.bodyKind = bodyKindOf(header(response.headers, 'content-type'));
      if (stream.bodyKind === 'sse') {
        // Until a session is known, the first event decides what the stream is (see onEvent).
        const reader = readers.templates
          ? (text: string, at: number, time: number, source: Uint8Array | string | undefined) => (stream.session ? readBlocks(readers, stream, stream.session, text, at, time, source) : at)
          : undefined;
        stream.framer = createSseFramer((event, block) => onEvent(stream, event, block), () => undefined, reader);
      }
      else if (stream.bodyKind === 'other' && stream.mcp === undefined) stream.mcp = false;
      settleSession(stream, false);
    },
    chunk(index, chunk) {
      const stream = get(index);
      if (!stream || stream.mcp === false || stream.end.state !== 'open') return -1;
      if (!stream.response) this.respond(index, { status: 200, headers: [] });
      if (stream.framer) return stream.framer.push(chunk.data, chunk.time);
      if (stream.bodyKind === 'json') stream.jsonParts.push(chunk.data);
      return -1;
    },
    end(index, end) {
      const stream = get(index);
      if (!stream || stream.end.state !== 'open' || end.state === 'open') return;
      // A clipped body's unfinished last event was cut by the recorder, not by the server.
      if (stream.framer && !end.bodyClipped) stream.framer.finish(end.time ?? stream.request.startTime);
      // An ended stream frames nothing more; its framer's buffers need not live with the session.
      stream.framer = undefined;
      settleSession(stream, true);
      // An HTTP error's JSON body explains the status; it is not a stream event.
      const status = stream.response?.status ?? 0;
      if (stream.session && status < 400 && stream.bodyKind === 'json' && stream.jsonParts.length > 0) {
        const data = joinText(stream.jsonParts);
        stream.jsonParts = [];
        // A 202 accepts a notification or response: a body of nothing (some servers write `null`
        // or `{}`) carries no message.
        if (!(status === 202 && NO_MESSAGE.test(data))) readEvent(readers, stream, stream.session, { time: end.time ?? stream.request.startTime, data }, undefined);
      }
      stream.events.trim();
      stream.end = endOf(stream, end);
      if (end.bodyAbsent || end.bodyClipped) stream.session?.unseen.push(stream);
    },
    report: (options) => buildReport(sessions.values(), streams, options?.final ?? false),
    events: (index) => get(index)?.events ?? NO_EVENTS,
    sessionOf: (index) => get(index)?.session?.key,
    get learned() {
      return { blocks: readers.templates?.hits ?? 0, payloads: readers.shapes?.hits ?? 0 };
    },
  };
}

/** Analyses finished (or snapshot) exchanges in one go. */
export function analyze(exchanges: readonly Exchange[], options: AnalysisOptions = {}): Report {
  const analyzer = createAnalyzer(options);
  feed(analyzer, exchanges);
  return analyzer.report({ final: true });
}

/** Feeds whole exchanges to an analyzer, in order; their indexes follow on from its streams. */
export function feed(analyzer: Analyzer, exchanges: readonly Exchange[]): void {
  for (const exchange of exchanges) {
    const index = analyzer.open(requestOf(exchange));
    if (exchange.status !== 0 || exchange.responseHeaders.length > 0) {
      analyzer.respond(index, { status: exchange.status, headers: exchange.responseHeaders });
    }
    for (const chunk of exchange.chunks) analyzer.chunk(index, chunk);
    analyzer.end(index, exchange.end);
  }
}

/**
 * The request of an exchange, to open its stream with. Not the exchange itself: a stream keeps
 * the request it was opened with, and an exchange's chunks are its whole body, which the
 * analysis keeps only when asked to keep payloads.
 */
export function requestOf(exchange: Exchange): RequestInfo {
  const { method, url, headers, body, startTime, entry } = exchange;
  const request: RequestInfo = { method, url, headers, startTime };
  if (body !== undefined) request.body = body;
  if (entry !== undefined) request.entry = entry;
  return request;
}

/** The readers of one analysis: the general one always, the learned ones unless turned off. */
function createReaders(pointers: readonly string[], learned: boolean): Readers {
  const facts = createFactReader(pointers);
  const place = { text: '', chunk: undefined, dataAt: -1, dataLength: 0, idAt: -1 };
  if (!learned) return { facts, parse: JSON.parse, templates: undefined, place };
  const keep = keepTreeFor(pointers.filter(isJsonPointer).map(pointerPath));
  const shapes = createShapeParser();
  return { facts, parse: (text) => shapes.parse(text), shapes, templates: createBlockTemplates(keep, (spec) => compilePlan(spec, pointers, facts)), place };
}

/** A body that says nothing: empty, `null` or `{}`. */
const NO_MESSAGE = /^\s*(null|\{\s*\})?\s*$/;
/** Why an end the recorder did not mark is taken for a reset. */
const CUT_INSIDE_EVENT = 'the body ends inside an event, so the stream was cut (the recorder marks no reset)';

/**
 * How a stream ended, as the report says it: an `unknown` end whose body stops inside an event
 * was cut, though the recorder (Firefox's export, its devtools entries) marks no reset.
 */
function endOf(stream: StreamState, end: StreamEnd): StreamEnd {
  const cut = stream.events.length > stream.completeEvents;
  if (end.state !== 'unknown' || !cut || end.bodyClipped) return end;
  return { ...end, state: 'reset', error: end.error ?? CUT_INSIDE_EVENT, inferred: true };
}

function storeChoice(store: AnalysisOptions['store']): StoreChoice {
  if (store === undefined || store === 'packed') return { table: 'packed', ids: 'packed' };
  return store === 'plain' ? { table: 'plain', ids: 'plain' } : store;
}

function bodyKindOf(contentType: string | undefined): BodyKind {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/event-stream') return 'sse';
  if (type === 'application/json' || type?.endsWith('+json')) return 'json';
  return 'other';
}

/** Joins body pieces once, at the end; a streaming decoder keeps split UTF-8 intact. */
function joinText(parts: readonly (Uint8Array | string)[]): string {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for (const part of parts) text += typeof part === 'string' ? part : decoder.decode(part, { stream: true });
  return text + decoder.decode();
}
