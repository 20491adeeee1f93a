import { endpointKey, legacySessionId } from '../read/detect';
import type { IdRecord } from '../store/id-index';
import { classify, isRecord, keyOf } from '../read/jsonrpc';
import { header } from '../model';
import type { Transport } from '../report';
import type { SessionState, SettledStreams, StreamState } from './state';

/** A session key and the transport that implies it. */
export interface SessionRef {
  key: string;
  transport: Transport;
}

/**
 * The session an exchange belongs to, from what its headers and URL say (DESIGN.md section 5):
 * `Mcp-Session-Id` (request, else response), else the legacy `?sessionId=`. Undefined when
 * neither says: the caller then waits for a legacy `endpoint` event or falls back to
 * {@link statelessRef}.
 */
export function sessionFromHeaders(stream: StreamState): SessionRef | undefined {
  const id = header(stream.request.headers, 'mcp-session-id') ?? header(stream.response?.headers ?? [], 'mcp-session-id');
  if (id) return { key: id, transport: 'streamable-http' };
  const legacy = legacySessionId(stream.request.url);
  if (legacy) return { key: legacy, transport: 'http+sse' };
  return undefined;
}

/** The legacy transport's session, named by the `event: endpoint` that opens its GET stream. */
export function sessionFromEndpoint(stream: StreamState, endpoint: string): SessionRef {
  const legacy = legacySessionId(endpoint);
  if (legacy) return { key: legacy, transport: 'http+sse' };
  let absolute = endpoint;
  try {
    absolute = new URL(endpoint, stream.request.url).href;
  } catch {
    // A relative URL against a relative one: keep it as sent.
  }
  return { key: endpointKey(absolute), transport: 'http+sse' };
}

/** Traffic with no session at all (the 2026-07-28 revision): grouped by origin + path. */
export function statelessRef(stream: StreamState): SessionRef {
  return { key: endpointKey(stream.request.url), transport: 'stateless' };
}

/** A new session, whose event ids go to `ids`. */
export function createSession(ref: SessionRef, ids: IdRecord): SessionState {
  return {
    key: ref.key,
    transport: ref.transport,
    protocolVersion: null,
    streams: [],
    ids,
    allIntegerIds: true,
    requests: new Map(),
    responses: new Map(),
    unanswered: new Set(),
    answeredCalls: new Set(),
    tokens: new Map(),
    findings: [],
    unseen: [],
    settled: unsettled(),
  };
}

/**
 * Adds an exchange to its session: notes the revision it announces and the JSON-RPC requests
 * its body sent, so responses on any stream can be paired with them.
 */
export function joinSession(session: SessionState, stream: StreamState): void {
  stream.session = session;
  // In index order, which is almost always arrival order: a GET stream that learns its session
  // from its first event may join after a later stream.
  let at = session.streams.length;
  while (at > 0 && session.streams[at - 1]!.index > stream.index) at--;
  session.streams.splice(at, 0, stream);
  const revision = header(stream.request.headers, 'mcp-protocol-version');
  if (revision && session.protocolVersion === null) session.protocolVersion = revision;
  const body = stream.request.body;
  if (!body) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return; // not JSON-RPC: nothing to pair
  }
  const classified = classify(parsed);
  if (!('messages' in classified)) return;
  for (const message of classified.messages) {
    if (message.role !== 'request' || message.idKey === undefined) continue;
    stream.requestKeys.push(message.idKey);
    const params = isRecord(message.value.params) ? message.value.params : {};
    const meta = isRecord(params._meta) ? params._meta : undefined;
    const token = meta ? keyOf(meta.progressToken) : undefined;
    const { _meta: _ignored, ...rest } = params;
    const callKey = `${message.method} ${JSON.stringify(rest)}`;
    session.requests.set(message.idKey, {
      stream: stream.index,
      method: message.method ?? '',
      callKey,
      ...(token === undefined ? {} : { progressToken: token }),
    });
    if (session.responses.has(message.idKey)) session.answeredCalls.add(callKey);
    else session.unanswered.add(message.idKey);
    if (token !== undefined) session.tokens.set(token, stream.index);
  }
}

export function unsettled(): SettledStreams {
  return { count: 0, last: undefined, lines: [], findings: [], resumes: [] };
}
