import { describe, expect, it } from 'vitest';
import { rpc, sse } from '../../test/support/fixtures';
import { createGuardAnalysis, MAX_EXCHANGES_PER_ANALYZER, type GuardAnalysis, type Watched } from './analysis';
import { decideResume } from './decision';

const URL = 'http://127.0.0.1/mcp';
const session = [{ name: 'mcp-session-id', value: 's' }];
const sseHead = { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }, ...session] };

/** A tool call whose stream delivers progress 1..`upTo` with ids `<call>-<n>`, then is reset. */
function interruptedCall(analysis: GuardAnalysis, call: number, upTo: number): Watched {
  const at = analysis.open({ method: 'POST', url: URL, headers: session, body: JSON.stringify(rpc.call(call)), startTime: call }, null);
  analysis.respond(at, sseHead);
  const blocks = Array.from({ length: upTo }, (_, i) => ({ id: `${call}-${i + 1}`, data: rpc.progress(`tok-${call}`, i + 1, i + 1) }));
  analysis.chunk(at, { time: call, data: sse(blocks) });
  analysis.end(at, { state: 'reset', time: call, error: 'net::ERR_CONNECTION_RESET' });
  return at;
}

/** A resume from `lastEventId` whose first replayed progress is `next`. */
function resumeOf(analysis: GuardAnalysis, call: number, lastEventId: string, next: number): Watched {
  const at = analysis.open({ method: 'GET', url: URL, headers: [...session, { name: 'last-event-id', value: lastEventId }], startTime: call + 0.5 }, lastEventId);
  analysis.respond(at, sseHead);
  analysis.chunk(at, { time: call + 0.5, data: sse([{ id: `${call}-r`, data: rpc.progress(`tok-${call}`, next, next) }]) });
  return at;
}

const verdictOf = (analysis: GuardAnalysis, at: Watched) => {
  const decision = decideResume(analysis.report(at), at.index, { unverifiable: 'accept', final: false });
  return decision.kind === 'wait' ? 'wait' : decision.verdict;
};

describe('the guard\'s analysis keeps its memory bounded in generations', () => {
  it(`starts a fresh analyzer after ${MAX_EXCHANGES_PER_ANALYZER} exchanges, and judges a resume of the previous one's stream there`, () => {
    const analysis = createGuardAnalysis({});
    const first = interruptedCall(analysis, 0, 3);
    for (let call = 1; call < MAX_EXCHANGES_PER_ANALYZER; call++) interruptedCall(analysis, call, 1);
    const later = interruptedCall(analysis, MAX_EXCHANGES_PER_ANALYZER, 3);
    expect(later.analyzer).not.toBe(first.analyzer);

    // The resume of a stream the previous analyzer saw goes to that analyzer, which can link it.
    const resumed = resumeOf(analysis, 0, '0-3', 4);
    expect(resumed.analyzer).toBe(first.analyzer);
    expect(verdictOf(analysis, resumed)).toBe('genuine');
    expect(verdictOf(analysis, resumeOf(analysis, MAX_EXCHANGES_PER_ANALYZER, `${MAX_EXCHANGES_PER_ANALYZER}-3`, 9))).toBe('gap');
    expect(analysis.stats()).toEqual({ retiredAnalyzers: 0, forgottenExchanges: 0 });
  });

  it('retires the analyzer two generations back and counts what it forgets; its streams\' resumes prove nothing then', () => {
    const analysis = createGuardAnalysis({});
    interruptedCall(analysis, 0, 3);
    for (let call = 1; call < 2 * MAX_EXCHANGES_PER_ANALYZER + 1; call++) interruptedCall(analysis, call, 1);
    expect(analysis.stats()).toEqual({ retiredAnalyzers: 1, forgottenExchanges: MAX_EXCHANGES_PER_ANALYZER });
    const orphan = resumeOf(analysis, 0, '0-3', 4);
    const report = analysis.report(orphan);
    expect(report.sessions[0]!.findings.map((f) => f.code)).toContain('resume-unknown-id');
  });

  it('retires nothing while a resume is held for judgement', () => {
    const analysis = createGuardAnalysis({});
    const first = interruptedCall(analysis, 0, 1);
    analysis.hold(1);
    for (let call = 1; call <= MAX_EXCHANGES_PER_ANALYZER + 5; call++) expect(interruptedCall(analysis, call, 1).analyzer).toBe(first.analyzer);
    analysis.hold(-1);
    expect(interruptedCall(analysis, MAX_EXCHANGES_PER_ANALYZER + 6, 1).analyzer).not.toBe(first.analyzer);
  });
});
