import type { SessionState, StreamState } from '../analysis/state';
import type { Finding } from '../report';
import { finding } from './findings';
import { chainRoot, linkOf } from './resume';

/**
 * The rules over a whole session, decided when a report is made: calls that lost their result,
 * and reconnects that did not say where they were.
 */

/**
 * Calls (method + params) that got a response somewhere, or are still in flight somewhere: a
 * re-issued call, even on a new session, saves (or may still save) a result its first try lost.
 * Only open calls are looked at; answered ones were noted as their responses arrived.
 */
export function savedCallKeys(sessions: readonly SessionState[], streams: readonly StreamState[]): (callKey: string) => boolean {
  const inFlight = new Set<string>();
  for (const session of sessions) {
    for (const id of session.unanswered) {
      const request = session.requests.get(id)!;
      if (stillInFlight(session, streams, streams[request.stream]!)) inFlight.add(request.callKey);
    }
  }
  return (callKey) => inFlight.has(callKey) || sessions.some((session) => session.answeredCalls.has(callKey));
}

/**
 * Requests whose stream ended without their response, never resumed or re-issued. A request whose
 * response could be in a body the recorder did not keep is not called lost: it goes to `unseen`,
 * with those streams, for body-not-captured to say so.
 */
export function lostResults(session: SessionState, streams: readonly StreamState[], isSaved: (callKey: string) => boolean, unseen: (stream: StreamState, why: string) => void): Finding[] {
  const lost: Finding[] = [];
  for (const id of session.unanswered) {
    const request = session.requests.get(id)!;
    if (isSaved(request.callKey)) continue;
    const origin = streams[request.stream]!;
    const status = origin.response?.status ?? 0;
    // No response head, or an HTTP error: the client was told; that is not a silent loss.
    if (status === 0 || status >= 400) continue;
    const carriers = session.unseen.filter((stream) => mayCarryResponse(session, streams, origin, stream));
    if (carriers.length > 0) {
      for (const stream of carriers) unseen(stream, `whether request ${id} (${request.method}) got its response`);
      continue;
    }
    lost.push(finding('result-lost', origin, null,
      `Request ${id} (${request.method}) never got its response: its stream ended and no resume or re-issued call delivered one. The tool result is lost.`));
  }
  return lost;
}

/** Whether `stream` may carry the response to a request `origin` sent: its own body, a resume of it, or (legacy) the SSE GET. */
function mayCarryResponse(session: SessionState, streams: readonly StreamState[], origin: StreamState, stream: StreamState): boolean {
  if (stream === origin) return true;
  if (stream.lastEventId !== null && chainRoot(session, streams, stream) === origin) return true;
  // A resume whose cursor was not captured may be of any stream before it.
  if (stream.lastEventId !== null && !linkOf(session, stream)) return stream.index > origin.index;
  return origin.bodyKind !== 'sse' && stream.bodyKind === 'sse';
}

/** A request is still in flight while its stream, a resume of it, or (legacy) the SSE GET is open. */
function stillInFlight(session: SessionState, streams: readonly StreamState[], origin: StreamState): boolean {
  if (origin.end.state === 'open') return true;
  const answersElsewhere = origin.bodyKind !== 'sse';
  return session.streams.some((stream) => stream.end.state === 'open'
    && (chainRoot(session, streams, stream) === origin || (answersElsewhere && stream.bodyKind === 'sse')));
}

/** A GET that reconnects after a reset stream delivered ids, but without telling where it was. */
export function reconnectsWithoutCursor(session: SessionState, members: readonly StreamState[]): Finding[] {
  const found: Finding[] = [];
  for (const broken of members) {
    if (broken.end.state !== 'reset' || broken.events.findIndex((event) => event.id !== undefined) < 0) continue;
    if (members.some((stream) => linkOf(session, stream)?.stream === broken.index)) continue;
    if (broken.requestKeys.length > 0 && broken.requestKeys.every((id) => session.responses.has(id))) continue;
    const endedAt = broken.end.time ?? broken.request.startTime;
    const reconnect = members.find((stream) => stream.index > broken.index && stream.request.method.toUpperCase() === 'GET'
      && stream.lastEventId === null && stream.request.startTime >= endedAt);
    if (!reconnect) continue;
    found.push(finding('resume-missing-last-event-id', reconnect, null,
      `This GET reconnects after stream ${broken.index} was reset having delivered event ids, but sends no Last-Event-ID: whatever was lost is never replayed.`));
  }
  return found;
}
