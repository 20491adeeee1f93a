import { evaluateResume, linkOf } from '../rules/resume';
import { lostResults, reconnectsWithoutCursor, savedCallKeys } from '../rules/session';
import { bodyNotCaptured, bodyOf } from '../rules/stream';
import type { Finding, Report, ResumeReport, SessionReport, StreamReport } from '../report';
import { inputFindings } from '../rules/input';
import { unsettled } from './grouping';
import type { SessionState, SettledStreams, StreamState } from './state';

/**
 * Assembles the report from the incremental state. Per-event rules already ran; what is left
 * are the rules that need a whole session: resumes, lost results and reconnects without cursor.
 */
export function buildReport(sessionStates: Iterable<SessionState>, streams: readonly StreamState[], final: boolean): Report {
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
  const findings = final ? inputFindings(reports, streams.length) : [];
  for (const item of findings) if (item.severity === 'warning') summary.warnings++;
  return { tool: 'mcp-stream-lens', reportVersion: 1, sessions: reports, findings, summary };
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
  // What waits on each body the recorder did not keep (see body-not-captured).
  const waiting = new Map<StreamState, string[]>();
  const unseen = (stream: StreamState, why: string) => {
    const list = waiting.get(stream);
    if (list) list.push(why);
    else waiting.set(stream, [why]);
  };
  const resumes: ResumeReport[] = [];
  for (const stream of resumers) {
    const outcome = evaluateResume(session, streams, stream);
    resumes.push(outcome.resume);
    findings.push(...outcome.findings);
    for (const absent of outcome.unseen) unseen(absent, `the verdict on resume #${stream.index}`);
  }
  findings.push(...lostResults(session, streams, isSaved, unseen), ...reconnectsWithoutCursor(session, members));
  for (const stream of session.unseen) findings.push(bodyNotCaptured(stream, waiting.get(stream) ?? []));
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
    body: bodyOf(stream),
  };
  // Added to the contract: why a stream ended early (the browser's error or "cancelled").
  if (stream.end.state === 'reset' || stream.end.state === 'cancelled') report.error = stream.end.error ?? stream.end.state;
  if (stream.end.state !== 'open') stream.reported = report;
  return report;
}

