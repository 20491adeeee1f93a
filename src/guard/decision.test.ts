import { describe, expect, it } from 'vitest';
import { createAnalyzer, type Exchange } from '../core/index';
import { prng, rechunk } from '../../test/support/fixtures';
import { scenarios, type ScenarioName } from '../../test/support/scenarios';
import { decideResume, type ResumeDecision, type UnverifiablePolicy } from './decision';

/**
 * Feeds a scenario to the core as a client receives it: every exchange whole, then its last one
 * (the resume) chunk by chunk, asking for a decision after each chunk as the guard does, and once
 * more at the end. Returns the first decision that is not `wait`, and after how many chunks.
 */
function decideLive(exchanges: readonly Exchange[], unverifiable: UnverifiablePolicy, seed = 1): { decision: ResumeDecision; chunks: number; total: number } {
  const analyzer = createAnalyzer();
  const [resume, ...before] = [...rechunk(exchanges, prng(seed), 16)].reverse();
  for (const ex of before.reverse()) {
    const index = analyzer.open(ex);
    analyzer.respond(index, { status: ex.status, headers: ex.responseHeaders });
    for (const chunk of ex.chunks) analyzer.chunk(index, chunk);
    analyzer.end(index, ex.end);
  }
  const index = analyzer.open(resume!);
  analyzer.respond(index, { status: resume!.status, headers: resume!.responseHeaders });
  let chunks = 0;
  for (const chunk of resume!.chunks) {
    analyzer.chunk(index, chunk);
    chunks += 1;
    const decision = decideResume(analyzer.report(), index, { unverifiable, final: false });
    if (decision.kind !== 'wait') return { decision, chunks, total: resume!.chunks.length };
  }
  analyzer.end(index, resume!.end);
  return { decision: decideResume(analyzer.report(), index, { unverifiable, final: true }), chunks, total: resume!.chunks.length };
}

const kindAndCode = (d: ResumeDecision) => (d.kind === 'refuse' ? `refuse:${d.finding.code}` : d.kind === 'accept' ? `accept:${d.verdict}` : 'wait');

describe('decideResume: the core judges a held resume', () => {
  const cases: [ScenarioName, UnverifiablePolicy, string][] = [
    ['genuine', 'accept', 'accept:genuine'],
    ['lostBuffer', 'accept', 'refuse:resume-seq-gap'],
    ['duplicate', 'accept', 'refuse:resume-seq-regress'],
    ['terminalUnproven', 'accept', 'refuse:resume-terminal-unproven'],
    ['tokenMismatch', 'accept', 'refuse:resume-token-mismatch'],
    ['tokenMatch', 'accept', 'accept:genuine'],
    ['idGap', 'accept', 'refuse:resume-id-gap'],
    ['empty', 'accept', 'accept:empty'],
    ['unverifiable', 'accept', 'accept:unverifiable'],
    ['unverifiable', 'refuse', 'refuse:resume-unverifiable'],
    ['unknownId', 'accept', 'accept:unverifiable'],
    ['unknownId', 'refuse', 'refuse:resume-unknown-id'],
  ];

  it.each(cases)('%s (unverifiable: %s) -> %s, whatever the chunking', (name, policy, expected) => {
    for (let seed = 1; seed <= 20; seed++) expect(kindAndCode(decideLive(scenarios[name](), policy, seed).decision)).toBe(expected);
  });

  it('refuses a replay that carries another stream\'s reply in the read that decides it', () => {
    // Decided at the first replayed event: a later read of a resume already handed over is not held.
    const whole = scenarios.crossStream();
    const analyzer = createAnalyzer();
    for (const ex of whole) {
      const index = analyzer.open(ex);
      analyzer.respond(index, { status: ex.status, headers: ex.responseHeaders });
      for (const chunk of ex.chunks) analyzer.chunk(index, chunk);
      if (ex !== whole.at(-1)) analyzer.end(index, ex.end);
      else expect(kindAndCode(decideResume(analyzer.report(), index, { unverifiable: 'accept', final: false }))).toBe('refuse:resume-cross-stream');
    }
  });

  it('decides a genuine or broken resume at its first replayed event, before the stream ends', () => {
    for (const name of ['genuine', 'lostBuffer', 'duplicate'] as const) {
      const { chunks, total } = decideLive(scenarios[name](), 'accept');
      expect(chunks).toBeLessThan(total);
    }
  });

  it('holds an unverifiable resume to its end under refuse, since a later event may still prove it', () => {
    const { chunks, total, decision } = decideLive(scenarios.unverifiable(), 'refuse');
    expect(decision.kind).toBe('refuse');
    expect(chunks).toBe(total);
  });

  it('names the chain\'s first stream, whose request the resume answers', () => {
    const { decision } = decideLive(scenarios.lostBuffer(), 'accept');
    expect(decision.kind === 'refuse' && decision.root).toBe(1);
    expect(decision.kind === 'refuse' && decision.stream.index).toBe(2);
  });

  it('waits while the resume has sent only keep-alives, and accepts a stream that is no resume', () => {
    const analyzer = createAnalyzer();
    const index = analyzer.open({ method: 'GET', url: 'http://127.0.0.1/mcp', headers: [{ name: 'mcp-session-id', value: 's' }, { name: 'last-event-id', value: 'x' }], startTime: 0 });
    analyzer.respond(index, { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }, { name: 'mcp-session-id', value: 's' }] });
    analyzer.chunk(index, { time: 1, data: ': keep-alive\n\n' });
    expect(decideResume(analyzer.report(), index, { unverifiable: 'refuse', final: false }).kind).toBe('wait');
    const post = analyzer.open({ method: 'POST', url: 'http://127.0.0.1/mcp', headers: [{ name: 'mcp-session-id', value: 's' }], body: '{}', startTime: 2 });
    expect(decideResume(analyzer.report(), post, { unverifiable: 'refuse', final: true }).kind).toBe('accept');
  });
});
