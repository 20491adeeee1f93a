import type { Finding, Report, ResumeReport, SessionReport, StreamReport, Verdict } from '../core/index';

/**
 * What the guard does with a resume whose verdict cannot be proven either way (no application
 * sequence, no resume token): hand it to the client (`accept`) or refuse it like a broken one.
 */
export type UnverifiablePolicy = 'accept' | 'refuse';

/** The core's word on one held resume, as the guard acts on it. */
export type ResumeDecision =
  | { kind: 'wait' }
  | { kind: 'accept'; verdict: Verdict; resume: ResumeReport | undefined; findings: Finding[] }
  | { kind: 'refuse'; verdict: Verdict; resume: ResumeReport; finding: Finding; stream: StreamReport; root: number };

/** How deep a chain of resumes-of-resumes is followed to its first stream (a loop guard). */
const MAX_CHAIN = 64;

/** Findings that say the replay could not be tied to anything: the core can say no more. */
const UNPROVABLE = new Set<Finding['code']>(['resume-unverifiable', 'resume-unknown-id']);

/**
 * Reads the core's report for the resume on `stream` and says what the guard must do with it.
 * Every rule is the core's: an error finding on the resume refuses it, a `genuine` verdict
 * accepts it, and the refused, expired or empty resumes the SDK handles itself are accepted
 * untouched. `unverifiable` is decided by the caller's policy once the core has seen a replayed
 * event (or the stream is over, `final`); before that the guard waits for more bytes.
 */
export function decideResume(report: Report, stream: number, options: { unverifiable: UnverifiablePolicy; final: boolean }): ResumeDecision {
  const session = sessionOf(report, stream);
  const resume = session?.resumes.find((r) => r.stream === stream);
  if (!session || !resume) return options.final ? { kind: 'accept', verdict: 'unverifiable', resume, findings: [] } : { kind: 'wait' };
  const findings = session.findings.filter((f) => f.stream === stream);
  const refuse = (finding: Finding): ResumeDecision => ({
    kind: 'refuse',
    verdict: resume.verdict,
    resume,
    finding,
    stream: session.streams.find((s) => s.index === stream)!,
    root: rootOf(session, stream),
  });
  // A resume rule's finding names the boundary best; any other error (a repeated id) also refuses.
  const error = findings.find((f) => f.severity === 'error' && f.code.startsWith('resume-')) ?? findings.find((f) => f.severity === 'error');
  if (error) return refuse(error);
  if (resume.verdict !== 'unverifiable') return { kind: 'accept', verdict: resume.verdict, resume, findings };

  const unprovable = findings.find((f) => UNPROVABLE.has(f.code));
  // Under `refuse`, a later event may still prove the replay, so the stream is held to its end.
  const decided = options.unverifiable === 'accept' ? unprovable !== undefined || options.final : options.final;
  if (!decided) return { kind: 'wait' };
  if (options.unverifiable === 'accept') return { kind: 'accept', verdict: resume.verdict, resume, findings };
  return refuse(unprovable ?? { code: 'resume-unverifiable', severity: 'warning', stream, event: null, message: 'The resume ended before any replayed event could prove it continues the original stream.' });
}

/** The session whose streams include `stream`. */
export function sessionOf(report: Report, stream: number): SessionReport | undefined {
  return report.sessions.find((s) => s.streams.some((x) => x.index === stream));
}

/** The first stream of the resume chain `stream` belongs to: the one whose request it answers. */
function rootOf(session: SessionReport, stream: number): number {
  let current = session.streams.find((s) => s.index === stream);
  for (let depth = 0; current && current.resumes !== null && depth < MAX_CHAIN; depth++) {
    const previous = session.streams.find((s) => s.index === current!.resumes);
    if (!previous) break;
    current = previous;
  }
  return current?.index ?? stream;
}
