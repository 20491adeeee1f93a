import { chainRoot, evaluateResume, linkOf } from '../rules/resume';
import { finding } from '../rules/findings';
import type { Finding, Report, ResumeReport, SessionReport, StreamReport } from '../report';
import { unsettled } from './grouping';
import type { SessionState, SettledStreams, StreamState } from './state';

/**
 * Assembles the report from the incremental state. Per-event rules already ran; what is left
 * are the rules that need a whole session: resumes, lost results and reconnects without cursor.
 */
export function buildReport(sessionStates: Iterable<SessionState>, streams: readonly StreamState[]): Report {
  const sessions = [...sessionStates].sort((a, b) => a.streams[0]!.index - b.streams[0]!.index);
  const savedCalls = savedCallKeys(sessions, streams);
  const reports = sessions.map((session) => sessionReport(session, streams, savedCalls));
  const summary = { sessions: reports.length, streams: 0, events: 0, errors: 0, warnings: 0, ignoredExchanges: 0 };
  for (const session of reports) {
    summary.streams += session.streams.length;
    for (const stream of session.streams) summary.events += stream.events;
    for (const item of session.findings) {
      if (item.severity === 'error') summary.errors++;
      else if (item.severity === 'warning') summary.warnings++;
    }
  }
  summary.ignoredExchanges = streams.filter((stream) => stream.mcp === false).length;
  return { tool: 'mcp-stream-lens', reportVersion: 1, sessions: reports, summary };
}

function sessionReport(session: SessionState, streams: readonly StreamState[], isSaved: (callKey: string) => boolean): SessionReport {
  // A live report is asked for several times a second: the settled streams' lines and findings
  // are copied as they were, and only the streams after them are looked at.
  const members = session.streams;
  const settled = settle(session);
  const lines = settled.lines.slice();
  const findings: Finding[] = [...session.findings, ...settled.findings];
  const resumers = settled.resumes.slice();
  for (let i = settled.count; i < members.length; i++) {
    const stream = members[i]!;
    for (const item of stream.findings) findings.push(item);
    lines.push(streamReport(session, stream));
    if (isResume(stream)) resumers.push(stream);
  }
  const resumes: ResumeReport[] = [];
  for (const stream of resumers) {
    const outcome = evaluateResume(session, streams, stream);
    resumes.push(outcome.resume);
    findings.push(...outcome.findings);
  }
  findings.push(...lostResults(session, streams, isSaved), ...reconnectsWithoutCursor(session, members));
  findings.sort((a, b) => a.stream - b.stream || (a.event ?? -1) - (b.event ?? -1) || a.code.localeCompare(b.code));
  return { key: session.key, transport: session.transport, protocolVersion: session.protocolVersion, streams: lines, resumes, findings };
}

const isResume = (stream: StreamState): boolean => stream.lastEventId !== null && stream.request.method.toUpperCase() === 'GET';

/**
 * The session's settled streams (see SettledStreams), extended by those that settled since the
 * last report. A stream that joined in among them (a GET learns its session from its first event)
 * starts the count afresh.
 */
function settle(session: SessionState): SettledStreams {
  const members = session.streams;
  let settled = session.settled;
  if (settled.count > 0 && members[settled.count - 1] !== settled.last) settled = session.settled = unsettled();
  while (settled.count < members.length) {
    const stream = members[settled.count]!;
    const line = streamReport(session, stream);
    // An open stream may still deliver events (and findings); a resume's link may still resolve.
    if (stream.end.state === 'open' || (line.resumes === null && stream.lastEventId !== null)) break;
    settled.lines.push(line);
    settled.findings.push(...stream.findings);
    if (isResume(stream)) settled.resumes.push(stream);
    settled.last = stream;
    settled.count++;
  }
  return settled;
}

function streamReport(session: SessionState, stream: StreamState): StreamReport {
  // An ended stream's line never changes again, except that a resume's link may resolve later
  // (its Last-Event-ID arriving on another stream): reuse it, so a live report costs what the
  // open streams cost, not the whole history.
  const kept = stream.reported;
  if (kept && (kept.resumes !== null || stream.lastEventId === null)) return kept;
  const report: StreamReport = {
    index: stream.index,
    method: stream.request.method,
    url: stream.request.url,
    status: stream.response?.status ?? 0,
    lastEventId: stream.lastEventId,
    resumes: linkOf(session, stream)?.stream ?? null,
    events: stream.completeEvents,
    end: stream.end.state === 'cancelled' ? 'reset' : stream.end.state,
  };
  // Added to the contract: why a stream ended early (the browser's error or "cancelled").
  if (stream.end.state === 'reset' || stream.end.state === 'cancelled') report.error = stream.end.error ?? stream.end.state;
  if (stream.end.state !== 'open') stream.reported = report;
  return report;
}

/**
 * Calls (method + params) that got a response somewhere, or are still in flight somewhere: a
 * re-issued call, even on a new session, saves (or may still save) a result its first try lost.
 * Only open calls are looked at; answered ones were noted as their responses arrived.
 */
function savedCallKeys(sessions: readonly SessionState[], streams: readonly StreamState[]): (callKey: string) => boolean {
  const inFlight = new Set<string>();
  for (const session of sessions) {
    for (const id of session.unanswered) {
      const request = session.requests.get(id)!;
      if (stillInFlight(session, streams, streams[request.stream]!)) inFlight.add(request.callKey);
    }
  }
  return (callKey) => inFlight.has(callKey) || sessions.some((session) => session.answeredCalls.has(callKey));
}

function lostResults(session: SessionState, streams: readonly StreamState[], isSaved: (callKey: string) => boolean): Finding[] {
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
function reconnectsWithoutCursor(session: SessionState, members: readonly StreamState[]): Finding[] {
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
