import { describe, expect, it } from 'vitest';
import { analyze as analyzeWith, createAnalyzer, feed, type AnalysisOptions, type Exchange, type Report } from '../index';
import { exchange, resume, rpc, sse } from '../../../test/support/fixtures';
import { READINGS } from '../../../test/support/readings';
import { scenarios } from '../../../test/support/scenarios';

/** The exchange as a writer that keeps no body gives it: no chunks, and the end says so. */
const withoutBody = (ex: Exchange, why: true | string = true): Exchange => ({ ...ex, chunks: [], end: { ...ex.end, bodyAbsent: why } });
const isSse = (ex: Exchange) => ex.responseHeaders.some((h) => h.value === 'text/event-stream');
const findings = (report: Report) => report.sessions.flatMap((s) => s.findings);
const codes = (report: Report) => findings(report).map((f) => `${f.severity}:${f.code}@${f.stream}`);

describe.each(READINGS)('absent evidence is no evidence, read by $name', ({ options }: { options: AnalysisOptions }) => {
  const analyze = (exchanges: readonly Exchange[]) => analyzeWith(exchanges, options);

  it('lost-buffer with every SSE body blanked: no result-lost and no unknown id, an unverifiable resume, and why', () => {
    const blanked = scenarios.lostBuffer().map((ex) => (isSse(ex) ? withoutBody(ex, "the writer keeps no body for an event stream") : ex));
    const report = analyze(blanked);
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['unverifiable']);
    // Each holds a verdict: whether initialize and the call got their responses, and the resume's.
    expect(codes(report)).toEqual(['warning:body-not-captured@0', 'warning:body-not-captured@1', 'warning:body-not-captured@2']);
    expect(findings(report)[0]!.message).toContain('whether request 0 (initialize) got its response');
    expect(report.summary.errors).toBe(0);
    const call = findings(report).find((f) => f.stream === 1)!;
    expect(call.message).toContain('the writer keeps no body for an event stream');
    expect(call.message).toContain('whether request 1 (tools/call) got its response');
    expect(call.message).toContain('mcp-stream-lens proxy');
    expect(report.sessions[0]!.streams.map((s) => s.body)).toEqual(['absent', 'absent', 'absent']);
  });

  it('a resume whose own body was not captured is unverifiable, not empty', () => {
    const [init, call, back] = scenarios.genuine();
    const report = analyze([init!, call!, withoutBody(back!)]);
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['unverifiable']);
    expect(codes(report)).toEqual(['warning:body-not-captured@2']);
    expect(findings(report)[0]!.message).toContain('the verdict on resume #2');
  });

  it('a Last-Event-ID that may have come on an uncaptured stream is not called unknown', () => {
    const [init, call, back] = scenarios.lostBuffer();
    const report = analyze([init!, withoutBody(call!), back!]);
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['unverifiable']);
    expect(codes(report)).not.toContain('warning:resume-unknown-id@2');
    expect(codes(report)).toContain('warning:body-not-captured@1');
  });

  it('a body the recorder did not keep, that nothing waits on, is only noted', () => {
    const report = analyze([withoutBody(exchange({ method: 'GET', session: 's' }))]);
    expect(codes(report)).toEqual(['info:body-not-captured@0']);
    expect(report.sessions[0]!.streams[0]).toMatchObject({ body: 'absent', events: 0 });
  });

  it('a body captured up to its reset is partial, and its lost result is still called lost', () => {
    const report = analyze(scenarios.resultLost());
    expect(report.sessions[0]!.streams.map((s) => s.body)).toEqual(['full', 'partial']);
    expect(codes(report)).toContain('error:result-lost@1');
  });
});

describe.each(READINGS)('what a recorder did not mark, read by $name', ({ options }: { options: AnalysisOptions }) => {
  const analyze = (exchanges: readonly Exchange[]) => analyzeWith(exchanges, options);
  const unmarked = (text: string) => ({ ...exchange({ session: 's', body: rpc.call(1), text }), end: { state: 'unknown' as const, time: 1 } });

  it('an end no one marked is unknown, unless the body stops inside an event: then it was cut', () => {
    const whole = analyze([unmarked(sse([{ id: 'a', data: rpc.progress('t', 1) }, { id: 'b', data: rpc.result(1) }]))]);
    expect(whole.sessions[0]!.streams[0]).toMatchObject({ end: 'unknown', body: 'full' });
    const cut = analyze([unmarked(`${sse([{ id: 'a', data: rpc.progress('t', 1) }])}id: b\ndata: {"jsonrpc":"2.0","meth`)]);
    expect(cut.sessions[0]!.streams[0]).toMatchObject({ end: 'reset', body: 'partial', events: 1 });
    expect(cut.sessions[0]!.streams[0]!.error).toContain('ends inside an event');
  });

  it('a 202 whose body is empty, null or {} carries no message: not malformed', () => {
    for (const text of ['', 'null', '{}', ' { } ']) {
      const accepted = exchange({ session: 's', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, status: 202, contentType: 'application/json', text });
      expect(codes(analyze([accepted])), JSON.stringify(text)).toEqual([]);
    }
    const odd = exchange({ session: 's', body: rpc.call(1), status: 200, contentType: 'application/json', text: 'null' });
    expect(codes(analyze([odd]))).toContain('warning:malformed-event@0');
  });

  it("a faithful replay of the standalone GET's buffer carries the call's progress it carried before: not cross-stream", () => {
    const post = exchange({ session: 's', body: rpc.call(1, 'long_task', 'tok'), text: '', end: 'open' });
    const get = exchange({ method: 'GET', session: 's', text: sse([{ id: 'g1', data: rpc.progress('tok', 1, 1) }, { id: 'g2', data: rpc.progress('tok', 2, 2) }]), end: 'reset' });
    const faithful = resume('s', 'g2', { text: sse([{ id: 'g3', data: rpc.progress('tok', 3, 3) }]) });
    expect(codes(analyze([post, get, faithful]))).not.toContain('error:resume-cross-stream@2');
    // A replay of the GET that carries progress the GET never carried mixed up buffers.
    const other = exchange({ session: 's', body: rpc.call(2, 'long_task', 'tok-2'), text: '', end: 'open' });
    const mixed = resume('s', 'g2', { text: sse([{ id: 'g3', data: rpc.progress('tok-2', 1, 1) }]) });
    expect(codes(analyze([post, other, get, mixed]))).toContain('error:resume-cross-stream@3');
  });
});

describe('MCP is recognised by what the message is', () => {
  it("a page's own JSON that merely contains JSON-RPC is not a session, and is counted as left out", () => {
    const transcript = exchange({ url: 'http://127.0.0.1:3000/__done', body: { result: 'ok', log: [{ jsonrpc: '2.0', id: 1, method: 'tools/call' }] }, contentType: 'application/json', text: '{"ok":true}' });
    const report = analyzeWith([transcript]);
    expect(report.sessions).toEqual([]);
    expect(report.summary.ignoredExchanges).toBe(1);
  });

  it('an input with no MCP traffic is a warning about the input; a live report says nothing yet', () => {
    const none = analyzeWith([exchange({ url: 'http://h/x', body: { hello: 1 }, contentType: 'application/json', text: '{}' })]);
    expect(none.findings.map((f) => `${f.severity}:${f.code}`)).toEqual(['warning:no-mcp-traffic']);
    expect(none.summary.warnings).toBe(1);
    expect(none.findings[0]!.message).toContain('none of its 1 request is MCP');
    expect(analyzeWith([]).findings[0]!.message).toContain('no requests at all');
    expect(analyzeWith(scenarios.genuine()).findings).toEqual([]);
    const live = createAnalyzer();
    feed(live, []);
    expect(live.report().findings).toEqual([]);
  });
});
