import { describe, expect, it } from 'vitest';
import { analyze as analyzeWith, type AnalysisOptions, type Exchange } from '../index';
import type { FindingCode, Report } from '../report';
import { READINGS } from '../../../test/support/readings';
import { scenarios, type ScenarioName } from '../../../test/support/scenarios';

describe.each(READINGS)('rules, read by $name', ({ options }: { options: AnalysisOptions }) => {
  const analyze = (exchanges: readonly Exchange[]): Report => analyzeWith(exchanges, options);
  const run = (name: ScenarioName): Report => analyze(scenarios[name]());
  const codes = (report: Report): FindingCode[] => report.sessions.flatMap((s) => s.findings.map((f) => f.code));
  const verdicts = (report: Report): string[] => report.sessions.flatMap((s) => s.resumes.map((r) => r.verdict));
  const finding = (report: Report, code: FindingCode) => report.sessions.flatMap((s) => s.findings).find((f) => f.code === code);

  describe('resume verdicts', () => {
    it('a replay that continues app_seq by one is genuine, with no finding', () => {
      const report = run('genuine');
      expect(verdicts(report)).toEqual(['genuine']);
      expect(codes(report)).toEqual([]);
      expect(report.sessions[0]!.resumes[0]).toMatchObject({ stream: 2, of: 1 });
      expect(report.sessions[0]!.streams[2]).toMatchObject({ resumes: 1, lastEventId: 'stream1_1700000000017_r17' });
    });

    it('the field report: app_seq jumps 17 -> 31 across the resume is a gap (error)', () => {
      const report = run('lostBuffer');
      expect(verdicts(report)).toEqual(['gap']);
      const gap = finding(report, 'resume-seq-gap')!;
      expect(gap).toMatchObject({ severity: 'error', stream: 2, event: 0 });
      expect(gap.message).toContain('17 to 31');
      // The values behind the sentence, for tools that act on them; the time is the event's arrival.
      expect(gap.evidence).toEqual({ expected: 18, got: 31, lastSeen: 17, time: 1_700_000_000_050 });
    });

    it("a finding's evidence names the input entry its stream came from, when the input says", () => {
      const exchanges = scenarios.lostBuffer().map((exchange, index) => ({ ...exchange, entry: index + 10 }));
      const gap = finding(analyze(exchanges), 'resume-seq-gap')!;
      expect(gap.evidence).toMatchObject({ entry: 12, expected: 18, got: 31 });
      const regress = finding(run('duplicate'), 'resume-seq-regress')!;
      expect(regress.evidence).toMatchObject({ expected: 18, got: 15, lastSeen: 17 });
    });

    it('a replay that starts before Last-Event-ID is a duplicate, and re-sent ids are flagged', () => {
      const report = run('duplicate');
      expect(verdicts(report)).toEqual(['duplicate']);
      expect(finding(report, 'resume-seq-regress')).toMatchObject({ severity: 'error', stream: 2, event: 0 });
      expect(codes(report).filter((c) => c === 'duplicate-event-id')).toHaveLength(3);
      expect(codes(run('genuine'))).not.toContain('duplicate-event-id');
    });

    it('a 200 with only keep-alives is empty (warning), and the unanswered call is lost', () => {
      const report = run('empty');
      expect(verdicts(report)).toEqual(['empty']);
      expect(finding(report, 'resume-empty')?.severity).toBe('warning');
      expect(finding(report, 'result-lost')).toMatchObject({ severity: 'error', stream: 1 });
    });

    it('409 is the honest rejection (info); the re-issued call saves the result', () => {
      const report = run('rejected');
      expect(verdicts(report)).toEqual(['rejected']);
      expect(finding(report, 'resume-rejected')?.severity).toBe('info');
      expect(codes(report)).not.toContain('result-lost');
      expect(report.summary.errors).toBe(0);
    });

    it('404 on the session is expired (info)', () => {
      const report = run('expired');
      expect(verdicts(report)).toEqual(['expired']);
      expect(finding(report, 'session-expired')?.severity).toBe('info');
    });

    it('a Last-Event-ID never delivered in the session is a warning and links nowhere', () => {
      const report = run('unknownId');
      expect(finding(report, 'resume-unknown-id')?.severity).toBe('warning');
      expect(report.sessions[0]!.resumes[0]!.of).toBeNull();
      expect(codes(run('genuine'))).not.toContain('resume-unknown-id');
    });

    it('no app_seq, no progress and no resume_token is unverifiable (warning)', () => {
      const report = run('unverifiable');
      expect(verdicts(report)).toEqual(['unverifiable']);
      expect(finding(report, 'resume-unverifiable')?.severity).toBe('warning');
      expect(codes(run('genuine'))).not.toContain('resume-unverifiable');
    });

    it('a terminal result right after Last-Event-ID with nothing vouching for it is unproven (error)', () => {
      const report = run('terminalUnproven');
      expect(finding(report, 'resume-terminal-unproven')).toMatchObject({ severity: 'error', stream: 1, event: 0 });
      // The genuine replay ends with a result too, but progress 18..20 came first.
      expect(codes(run('genuine'))).not.toContain('resume-terminal-unproven');
    });

    it('an echoed resume_token with no buffer head to compare is unverifiable', async () => {
      const { exchange, resume, rpc, sse } = await import('../../../test/support/fixtures');
      const report = analyze([
        exchange({ session: 's', body: rpc.call(1), text: sse([{ id: 'e1', data: rpc.message('a') }]), end: 'reset' }),
        resume('s', 'e1', { text: sse([{ id: 'e2', data: { ...rpc.message('b'), resume_token: 'head-1' } }, { id: 'e3', data: rpc.result(1) }]) }),
      ]);
      expect(verdicts(report)).toEqual(['unverifiable']);
      expect(finding(report, 'resume-unverifiable')?.message).toContain('never showed one');
    });

    it('a resume still waiting for its first event is not called empty yet', async () => {
      const { resume } = await import('../../../test/support/fixtures');
      const waiting = [...scenarios.resultLost(), resume('session-a', 'stream1_1700000000005_r5', { end: 'open' })];
      const report = analyze(waiting);
      expect(verdicts(report)).toEqual(['unverifiable']);
      expect(codes(report)).not.toContain('resume-empty');
      expect(codes(report)).not.toContain('result-lost'); // the resume may still deliver it
    });

    it('an echoed resume_token that differs from the buffer head is a mismatch; an equal one is genuine', () => {
      expect(finding(run('tokenMismatch'), 'resume-token-mismatch')?.severity).toBe('error');
      expect(verdicts(run('tokenMatch'))).toEqual(['genuine']);
      expect(codes(run('tokenMatch'))).toEqual([]);
    });

    it('integer ids: a skip is an id gap, but ids consumed by a sibling stream are not', () => {
      const gap = run('idGap');
      expect(verdicts(gap)).toEqual(['gap']);
      expect(finding(gap, 'resume-id-gap')?.message).toContain('2 to 9');
      const interleaved = run('interleavedIds');
      expect(verdicts(interleaved)).toEqual(['genuine']);
      expect(codes(interleaved)).toEqual([]);
    });

    it('opaque SDK ids never get numeric checks', () => {
      expect(codes(run('lostBuffer'))).not.toContain('resume-id-gap');
    });

    it('a replayed reply to another stream\'s request is cross-stream (error)', () => {
      const report = run('crossStream');
      expect(finding(report, 'resume-cross-stream')).toMatchObject({ severity: 'error', stream: 2, event: 1 });
      expect(codes(run('genuine'))).not.toContain('resume-cross-stream');
    });

    it('a reconnect GET without Last-Event-ID after ids were delivered is an error', () => {
      const report = run('missingLastEventId');
      expect(finding(report, 'resume-missing-last-event-id')).toMatchObject({ severity: 'error', stream: 2 });
      expect(codes(run('legacy'))).not.toContain('resume-missing-last-event-id');
    });

    it('Last-Event-ID sent to a 2026-07-28 stateless server is a warning; the session is labelled stateless', () => {
      const report = run('stateless');
      expect(finding(report, 'resume-on-stateless')?.severity).toBe('warning');
      expect(report.sessions[0]).toMatchObject({ transport: 'stateless', protocolVersion: '2026-07-28', key: 'http://127.0.0.1:3000/mcp' });
      expect(codes(run('genuine'))).not.toContain('resume-on-stateless');
    });
  });

  describe('stream and session rules', () => {
    it('the same event id twice in a session is an error', () => {
      expect(finding(run('duplicateIds'), 'duplicate-event-id')).toMatchObject({ severity: 'error', stream: 0, event: 1 });
    });

    it('app_seq skipping inside a live stream is a warning; counting by one is not', () => {
      expect(finding(run('liveSeqGap'), 'seq-gap')).toMatchObject({ severity: 'warning', event: 1 });
      expect(codes(run('genuine'))).not.toContain('seq-gap');
    });

    it('progress that does not strictly increase is an error', () => {
      expect(finding(run('progressRegress'), 'seq-regress')).toMatchObject({ severity: 'error', event: 1 });
      expect(codes(run('genuine'))).not.toContain('seq-regress');
    });

    it('data that is not JSON, or JSON that is not JSON-RPC, is malformed (warning) and nothing else is lost', () => {
      const report = run('malformed');
      expect(codes(report)).toEqual(['malformed-event', 'malformed-event']);
      expect(report.sessions[0]!.streams[0]!.events).toBe(3);
    });

    it('a call whose stream ended without a response, never resumed or re-issued, lost its result', () => {
      expect(finding(run('resultLost'), 'result-lost')).toMatchObject({ severity: 'error', stream: 1, event: null });
      expect(codes(run('genuine'))).not.toContain('result-lost');
    });
  });

  describe('session grouping', () => {
    it('groups the legacy HTTP+SSE transport by its endpoint sessionId, replies on the GET paired', () => {
      const report = run('legacy');
      expect(report.sessions).toHaveLength(1);
      expect(report.sessions[0]).toMatchObject({ key: 'legacy-1', transport: 'http+sse' });
      expect(report.sessions[0]!.streams.map((s) => s.index)).toEqual([0, 1]);
      expect(codes(report)).toEqual([]);
    });

    it('takes the revision from the initialize result and the session from the response header', () => {
      const report = run('genuine');
      expect(report.sessions).toHaveLength(1);
      expect(report.sessions[0]).toMatchObject({ key: 'session-a', transport: 'streamable-http', protocolVersion: '2025-11-25' });
    });
  });

  describe('header handling', () => {
    it('groups by Mcp-Session-Id whatever its case', async () => {
      const { exchange, rpc, sse } = await import('../../../test/support/fixtures');
      const report = analyze([
        exchange({ body: rpc.call(1), headers: [{ name: 'MCP-SESSION-ID', value: 'X' }], text: sse([{ id: 'a', data: rpc.result(1) }]) }),
        exchange({ body: rpc.call(2), headers: [{ name: 'mcp-session-id', value: 'X' }], text: sse([{ id: 'b', data: rpc.result(2) }]) }),
      ]);
      expect(report.sessions.map((s) => [s.key, s.streams.length])).toEqual([['X', 2]]);
    });
  });

  describe('re-issued calls', () => {
    it('a re-issue still running on a new session keeps the first try from being called lost', async () => {
      const { exchange, rpc, sse } = await import('../../../test/support/fixtures');
      const first = exchange({ session: 'old', body: rpc.call(1, 'long_task', 'tok-1', { key: 'k' }), text: sse([{ id: 'a', data: rpc.progress('tok-1', 1, 1) }]), end: 'reset' });
      const again = exchange({ session: 'new', body: rpc.call(7, 'long_task', 'tok-7', { key: 'k' }), text: sse([{ id: 'b', data: rpc.progress('tok-7', 1, 1) }]), end: 'open' });
      expect(codes(analyze([first, again]))).not.toContain('result-lost');
      expect(codes(analyze([first, { ...again, end: { state: 'complete' } }]))).toContain('result-lost');
    });
  });
});
