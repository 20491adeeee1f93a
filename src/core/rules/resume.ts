import { isStatelessRevision } from '../read/detect';
import type { Delivery } from '../store/id-index';
import { finding, quote, type Values } from './findings';
import type { Finding, ResumeReport, Verdict } from '../report';
import type { EventRecord, SessionState, StreamState } from '../analysis/state';

/** How many missing numeric ids a resume-id-gap check looks up before it stops counting. */
const MAX_ID_GAP_CHECK = 100_000;
/** How deep a chain of resumes-of-resumes is followed (a loop guard for hostile captures). */
const MAX_CHAIN = 64;

export interface ResumeOutcome {
  resume: ResumeReport;
  findings: Finding[];
  /** Streams whose body the recorder did not keep, and that leave this verdict open. */
  unseen: StreamState[];
}

/** Where a resume picks up: the stream and event that delivered its `Last-Event-ID`. */
export function linkOf(session: SessionState, stream: StreamState): Delivery | undefined {
  return stream.lastEventId === null ? undefined : session.ids.get(stream.lastEventId);
}

/** The first stream of a chain of resumes: the one whose request the whole chain answers. */
export function chainRoot(session: SessionState, streams: readonly StreamState[], stream: StreamState): StreamState {
  let current = stream;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    const link = linkOf(session, current);
    const previous = link ? streams[link.stream] : undefined;
    if (!previous || previous === current) break;
    current = previous;
  }
  return current;
}

/**
 * Applies DESIGN.md section 5's resume rules to one GET that carried `Last-Event-ID`. The verdict
 * compares the application sequence across the boundary; transport ids, the terminal event's
 * provenance and cross-stream replies add findings.
 */
export function evaluateResume(session: SessionState, streams: readonly StreamState[], stream: StreamState): ResumeOutcome {
  const lastEventId = stream.lastEventId!;
  const link = linkOf(session, stream);
  const findings: Finding[] = [];
  const add: Add = (code, event, message, values) => {
    findings.push(finding(code, stream, event, message, values));
  };
  // Streams of the session before this one whose bodies were not captured: the cursor may have
  // been delivered on one of them.
  const unseenBefore = link ? [] : session.unseen.filter((other) => other.index < stream.index);
  let unseen: StreamState[] = [];
  const done = (verdict: Verdict): ResumeOutcome => ({
    resume: { stream: stream.index, of: link?.stream ?? null, lastEventId, verdict },
    findings,
    unseen,
  });

  if (isStatelessRevision(session.protocolVersion)) {
    add('resume-on-stateless', null,
      `Last-Event-ID ${quote(lastEventId)} was sent to a ${session.protocolVersion} server, a revision without resumption: nothing can be replayed.`);
  }
  if (!link && unseenBefore.length === 0) {
    add('resume-unknown-id', null,
      `Last-Event-ID ${quote(lastEventId)} was never delivered in this session (as captured): the resume cannot be tied to a stream.`);
  }
  const status = stream.response?.status ?? 0;
  if (status === 404) {
    add('session-expired', null, 'The server answered 404: it no longer knows the session.');
    return done('expired');
  }
  if (status >= 400) {
    add('resume-rejected', null,
      `The server answered ${status} instead of replaying: the honest answer.`);
    return done('rejected');
  }
  // Absent evidence is no evidence: a body the recorder did not keep, this one or the one that may
  // have delivered the cursor, leaves the resume open (body-not-captured says so).
  if (stream.end.bodyAbsent || stream.end.bodyClipped) {
    unseen = [stream, ...unseenBefore];
    return done('unverifiable');
  }
  if (!link && unseenBefore.length > 0) {
    unseen = unseenBefore;
    return done('unverifiable');
  }
  if (firstDataEvent(stream) < 0) {
    // Live capture: the resume is still waiting for its head or its first replayed event.
    if (stream.end.state === 'open') return done('unverifiable');
    add('resume-empty', null, status === 0
      ? 'The resume got no response at all: nothing was replayed.'
      : `The resume answered ${status} but carried no event (only keep-alives, or it closed at once): nothing was replayed.`);
    return done('empty');
  }
  // Unlinked, there is nothing to compare against; resume-unknown-id has said so.
  if (!link) return done('unverifiable');
  const root = chainRoot(session, streams, stream);
  checkCrossStream(session, streams, root, stream, link, add);
  let verdict = compareSequences(session, streams, stream, link, root, add);
  // Ids may have gone on a stream whose body was not captured: then a skip proves nothing.
  if (verdict === 'genuine' && session.allIntegerIds && session.unseen.length === 0 && !idsContinue(session, stream, lastEventId, add)) verdict = 'gap';
  return done(verdict);
}

type Add = (code: Finding['code'], event: number | null, message: string, values?: Values) => void;

function compareSequences(
  session: SessionState,
  streams: readonly StreamState[],
  stream: StreamState,
  link: { stream: number; event: number },
  root: StreamState,
  add: Add,
): Verdict {
  const firstData = firstDataEvent(stream);
  const first = stream.events.get(firstData)!;
  const terminal = isTerminal(first, root);
  const seqIndex = stream.events.findIndex((event) => event.seq !== undefined);
  const seqEvent = stream.events.get(seqIndex);
  const before = seqEvent ? lastBefore(session, streams, link, seqEvent.seq!.key) : undefined;

  let verdict: Verdict = 'unverifiable';
  if (seqEvent && before) {
    const { value, kind, key } = seqEvent.seq!;
    const expectUnit = kind !== 'progress' || before.unitSteps;
    if (value <= before.value) {
      add('resume-seq-regress', seqIndex,
        `The first replayed ${key} is ${value}, but ${before.value} was already seen before the resume: the replay started too early, so messages repeat.`,
        { expected: before.value + 1, got: value, lastSeen: before.value });
      verdict = 'duplicate';
    } else if (expectUnit && value > before.value + 1) {
      add('resume-seq-gap', seqIndex,
        `${key} jumped from ${before.value} to ${value} across the resume: the buffer was lost and the replica invented the rest.`,
        { expected: before.value + 1, got: value, lastSeen: before.value });
      verdict = 'gap';
    } else {
      verdict = 'genuine';
    }
  } else if (first.resumeToken !== undefined) {
    const expected = tokenBefore(streams, link);
    if (expected !== undefined && expected !== first.resumeToken) {
      add('resume-token-mismatch', firstData,
        `The echoed resume_token ${quote(first.resumeToken)} differs from the buffer head ${quote(expected)}: the replica replayed some other buffer.`,
        { expected, got: first.resumeToken });
      verdict = 'gap';
    } else if (expected !== undefined) {
      verdict = 'genuine';
    }
  }
  const provenByThisEvent = verdict === 'genuine' && seqIndex === firstData;
  if (terminal && !provenByThisEvent) {
    add('resume-terminal-unproven', firstData,
      `The first event after Last-Event-ID is a terminal ${first.stopReason ?? first.role} with no progress before it: nothing shows it came from the original stream rather than the resuming replica.`);
  } else if (verdict === 'unverifiable' && !terminal) {
    add('resume-unverifiable', firstData, first.resumeToken === undefined
      ? 'The replay carries no application sequence (app_seq or progress) and no resume_token, so nothing proves it continues the original stream.'
      : 'The replay echoes a resume_token, but the original stream never showed one to compare it with, so nothing proves continuity.');
  }
  return verdict;
}

/** A result or error for the chain's original request, or a message that says "I am done". */
function isTerminal(event: EventRecord, root: StreamState): boolean {
  if (event.stopReason) return true;
  return (event.role === 'result' || event.role === 'error') && event.idKey !== undefined && root.requestKeys.includes(event.idKey);
}

/** The last value of `key` delivered at or before the link, following the chain backwards. */
function lastBefore(
  session: SessionState,
  streams: readonly StreamState[],
  link: { stream: number; event: number },
  key: string,
): { value: number; unitSteps: boolean } | undefined {
  let at: { stream: number; event: number } | undefined = link;
  for (let depth = 0; at && depth < MAX_CHAIN; depth++) {
    const stream: StreamState | undefined = streams[at.stream];
    if (!stream) return undefined;
    const values: number[] = [];
    for (let i = at.event; i >= 0; i--) {
      if (stream.events.seqKeyAt(i) === key) values.push(stream.events.seqValueAt(i));
    }
    if (values.length > 0) {
      let unitSteps = true;
      for (let i = 1; i < values.length; i++) if (values[i - 1]! - values[i]! !== 1) unitSteps = false;
      return { value: values[0]!, unitSteps };
    }
    at = linkOf(session, stream);
  }
  return undefined;
}

function tokenBefore(streams: readonly StreamState[], link: { stream: number; event: number }): string | undefined {
  const stream = streams[link.stream];
  for (let i = link.event; stream && i >= 0; i--) {
    const token = stream.events.resumeTokenAt(i);
    if (token !== undefined) return token;
  }
  return undefined;
}

/** Numeric ids must continue, counting ids that sibling streams consumed meanwhile. */
function idsContinue(session: SessionState, stream: StreamState, lastEventId: string, add: Add): boolean {
  const firstIndex = stream.events.findIndex((event) => event.id !== undefined);
  if (firstIndex < 0) return true;
  const last = Number(lastEventId);
  const first = Number(stream.events.idAt(firstIndex));
  if (first <= last + 1) return true;
  let missing = 0;
  for (let id = last + 1; id < first && id - last <= MAX_ID_GAP_CHECK; id++) if (!session.ids.has(String(id))) missing++;
  if (missing === 0) return true;
  add('resume-id-gap', firstIndex,
    `Event ids jump from ${last} to ${first} across the resume and ${missing} of the ids between were delivered on no stream: the replica skipped events it never had.`,
    { expected: last + 1, got: first, lastSeen: last });
  return false;
}

/** The progress tokens the chain delivered at or before the link, following it backwards. */
function tokensBefore(session: SessionState, streams: readonly StreamState[], link: Delivery): Set<string> {
  const tokens = new Set<string>();
  let at: Delivery | undefined = link;
  for (let depth = 0; at && depth < MAX_CHAIN; depth++) {
    const stream: StreamState | undefined = streams[at.stream];
    if (!stream) break;
    for (let i = at.event; i >= 0; i--) {
      const token = stream.events.progressTokenAt(i);
      if (token !== undefined) tokens.add(token);
    }
    at = linkOf(session, stream);
  }
  return tokens;
}

/** The first event that carries data (not a priming, id-only or cut-off one), or -1. */
function firstDataEvent(stream: StreamState): number {
  for (let i = 0; i < stream.events.length; i++) {
    const role = stream.events.roleAt(i);
    if (role !== 'empty' && role !== 'truncated') return i;
  }
  return -1;
}

/** Replies in a replay must answer requests of the chain's own original stream. */
/**
 * Replies in a replay must answer requests of the chain's own original stream. Progress for
 * another stream's call is one only if the original stream never carried that token before the
 * cut: a server may send a call's progress on the standalone GET (mcp-lite does), and a faithful
 * replay of that GET's buffer repeats it.
 */
function checkCrossStream(session: SessionState, streams: readonly StreamState[], root: StreamState, stream: StreamState, link: Delivery, add: Add): void {
  const events = stream.events;
  let carried: Set<string> | undefined;
  for (let index = 0; index < events.length; index++) {
    let owner: number | undefined;
    const role = events.roleAt(index);
    const idKey = events.idKeyAt(index);
    if ((role === 'result' || role === 'error') && idKey !== undefined) owner = session.requests.get(idKey)?.stream;
    const token = events.progressTokenAt(index);
    if (token !== undefined) {
      owner = session.tokens.get(token);
      if (owner !== undefined && owner !== root.index && (carried ??= tokensBefore(session, streams, link)).has(token)) continue;
    }
    if (owner === undefined || owner === root.index) continue;
    add('resume-cross-stream', index,
      `Replayed event ${index} belongs to stream ${owner}, not to stream ${root.index} that this resume continues: the replica mixed up buffers.`);
  }
}
