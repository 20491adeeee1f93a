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

export function lostResults(session: SessionState, streams: readonly StreamState[], isSaved: (callKey: string) => boolean): Finding[] {
  const lost: Finding[] = [];
  for (const id of session.unanswered) {
    const request = session.requests.get(id)!;
    if (isSaved(request.callKey)) continue;
    const origin = streams[request.stream]!;
    const status = origin.response?.status ?? 0;
    // No response head, or an HTTP error: the client was told; that is not a silent loss.
    if (status === 0 || status >= 400) continue;
    lost.push(finding('result-lost', origin, null,
      `Request ${id} (${request.method}) never got its response: its stream ended and no resume or re-issued call delivered one. The tool result is lost.`));
  }
  return lost;
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
