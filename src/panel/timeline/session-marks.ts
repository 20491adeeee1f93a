import type { EventRecord, EventTable, Finding, SessionReport, StreamReport, Verdict } from '../../core/index';
import { worstSeverity } from '../model/severity';
import { createStreamArrays, type StreamArraysBuilder } from './stream-arrays';
import { addFlags, assemble, MARK_DESYNC, MARK_ERROR, MARK_WARNING, type BridgeMark, type ResumeMark, type ResumeTone, type StreamArrays, type TimelineData } from './marks';

/** What the timeline needs to know about one session, from whichever capture holds it. */
export interface SessionInput {
  session: SessionReport;
  events(stream: number): EventTable;
  /** When the stream's request was sent and when its body ended, epoch ms, when known. */
  startTime(stream: number): number | undefined;
  endTime(stream: number): number | undefined;
  includeStream?(stream: StreamReport): boolean;
  include?(stream: StreamReport, record: EventRecord, index: number): boolean;
}

/** Verdicts that mean the replay was not the stream it claims to continue. */
const BAD_VERDICTS = new Set<Verdict>(['gap', 'duplicate']);

/** The worst finding about a resume colours it; without one, its verdict does. */
function toneOf(verdict: Verdict, findings: readonly Finding[]): ResumeTone {
  const worst = worstSeverity(findings);
  if (worst === 'error' || BAD_VERDICTS.has(verdict)) return 'error';
  if (worst === 'warning' || verdict === 'empty' || verdict === 'unverifiable') return 'warning';
  if (verdict === 'genuine' && worst === null) return 'ok';
  return 'info';
}

/** Last seen, expected and got, from the first of the resume's findings whose evidence has them. */
function arithmeticOf(findings: readonly Finding[]): Pick<ResumeMark, 'lastSeen' | 'expected' | 'got'> {
  const e = findings.find((f) => f.evidence?.got !== undefined || f.evidence?.expected !== undefined)?.evidence;
  if (!e) return {};
  return { ...(e.lastSeen === undefined ? {} : { lastSeen: e.lastSeen }), ...(e.expected === undefined ? {} : { expected: e.expected }), ...(e.got === undefined ? {} : { got: e.got }) };
}

/**
 * Turns a session's report and events into the timeline's typed arrays. Runs when the data or
 * the filters change, never per frame.
 */
export function sessionMarks(input: SessionInput): TimelineData {
  const { session } = input;
  const streams = session.streams.filter((s) => input.includeStream?.(s) ?? true);
  const origin = originOf(input);
  const flagged = findingFlags(session);
  const arrays = streams.map((stream): StreamArrays => {
    const events = input.events(stream.index);
    const start = (input.startTime(stream.index) ?? (events.length > 0 ? events.timeAt(0) : origin)) - origin;
    const ended = input.endTime(stream.index);
    const eventFlags = flagged.get(stream.index);
    const streamError = session.findings.some((x) => x.stream === stream.index && x.event === null && x.severity === 'error');
    const key: CacheKey = { count: events.length, include: input.include, origin, start, ended, flags: signature(eventFlags), streamError };
    // A live refresh rebuilds no stream: ended ones keep their arrays, a growing one appends.
    const kept = cache.get(events);
    if (kept && sameKey(kept.key, key)) return kept.arrays;
    const builder = kept && canGrow(kept.key, key)
      ? kept.builder
      : createStreamArrays({ stream, include: input.include, origin, start, eventFlags, streamError });
    const arrays = builder.update(events, ended);
    cache.set(events, { key, builder, arrays });
    return arrays;
  });
  const shown = new Set(streams.map((s) => s.index));
  const resumes = session.resumes.filter((r) => shown.has(r.stream)).map((r): ResumeMark => {
    const stream = session.streams.find((s) => s.index === r.stream)!;
    const about = session.findings.filter((x) => x.stream === r.stream && (x.code.startsWith('resume-') || x.code === 'session-expired'));
    const tone = toneOf(r.verdict, about);
    return {
      stream: r.stream, of: r.of, lastEventId: r.lastEventId, status: stream.status, verdict: r.verdict,
      time: (input.startTime(r.stream) ?? origin) - origin,
      bad: tone === 'error', tone, ...arithmeticOf(about),
    };
  });
  const bridges = resumes.flatMap((r) => bridgeOf(input, r, origin, arrays));
  for (const b of bridges) {
    const r = resumes.find((x) => x.stream === b.resume)!;
    if (r.lastSeen === undefined && b.from.seq === b.from.seq) r.lastSeen = b.from.seq;
    if (r.got === undefined && b.to.seq === b.to.seq) r.got = b.to.seq;
  }
  return assemble(origin, arrays, resumes, bridges);
}

interface CacheKey {
  count: number;
  include: SessionInput['include'];
  origin: number;
  start: number;
  ended: number | undefined;
  flags: string;
  streamError: boolean;
}
/** Per events array (one per stream and capture): the arrays built from it and what they depend on. */
const cache = new WeakMap<EventTable, { key: CacheKey; builder: StreamArraysBuilder; arrays: StreamArrays }>();

function sameKey(a: CacheKey, b: CacheKey): boolean {
  return a.count === b.count && a.include === b.include && a.origin === b.origin && a.start === b.start && a.ended === b.ended
    && a.flags === b.flags && a.streamError === b.streamError;
}

/** Only more events arrived (and maybe the end): the kept arrays can take them in. */
function canGrow(a: CacheKey, b: CacheKey): boolean {
  return b.count >= a.count && a.include === b.include && a.origin === b.origin && a.start === b.start
    && a.flags === b.flags && a.streamError === b.streamError;
}

function signature(flags: ReadonlyMap<number, number> | undefined): string {
  return flags ? [...flags].join(';') : '';
}

function originOf(input: SessionInput): number {
  let origin = Infinity;
  for (const s of input.session.streams) {
    const events = input.events(s.index);
    const t = input.startTime(s.index) ?? (events.length > 0 ? events.timeAt(0) : undefined);
    if (t !== undefined && t < origin) origin = t;
  }
  return origin === Infinity ? 0 : origin;
}

/** Error and warning findings that name an event colour that event's mark: stream -> event -> flags. */
function findingFlags(session: SessionReport): Map<number, Map<number, number>> {
  const flags = new Map<number, Map<number, number>>();
  for (const f of session.findings) {
    if (f.event === null || f.severity === 'info') continue;
    let events = flags.get(f.stream);
    if (!events) flags.set(f.stream, (events = new Map()));
    events.set(f.event, (events.get(f.event) ?? 0) | (f.severity === 'error' ? MARK_ERROR : MARK_WARNING));
  }
  return flags;
}

/**
 * What joins the two sides of a resume: from the event that delivered `Last-Event-ID` (and the
 * last app-sequence value at or before it) to the first replayed event that carries one. Across a
 * bad resume both ends are flagged as the desync.
 */
function bridgeOf(input: SessionInput, resume: ResumeMark, origin: number, arrays: StreamArrays[]): BridgeMark[] {
  if (resume.of === null) return [];
  const before = input.events(resume.of);
  let at = 0;
  while (at < before.length && before.idAt(at) !== resume.lastEventId) at++;
  if (at === before.length) return [];
  let seqAt = at;
  while (seqAt >= 0 && before.seqKeyAt(seqAt) === undefined) seqAt--;
  const after = input.events(resume.stream);
  let first = 0;
  while (first < after.length && after.seqKeyAt(first) === undefined) first++;
  const to = first < after.length ? first : after.length > 0 ? 0 : -1;
  if (to < 0) return [];
  if (resume.bad) {
    markDesync(arrays, resume.of, at);
    markDesync(arrays, resume.stream, to);
  }
  return [{
    resume: resume.stream,
    bad: resume.bad,
    from: { stream: resume.of, event: at, time: before.timeAt(at) - origin, seq: seqAt >= 0 ? before.seqValueAt(seqAt) : NaN },
    to: { stream: resume.stream, event: to, time: after.timeAt(to) - origin, seq: after.seqValueAt(to) },
  }];
}

function markDesync(arrays: StreamArrays[], stream: number, event: number): void {
  const a = arrays.find((x) => x.stream === stream);
  if (!a) return;
  for (let i = 0; i < a.count; i++) if (a.event[i] === event && !(a.flags[i]! & MARK_DESYNC)) addFlags(a, i, MARK_DESYNC);
}
