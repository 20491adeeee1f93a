import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { analyze, createAnalyzer, feed, readHar, writeHar, type Exchange } from './index';
import { exchange, rpc, sse } from '../../test/support/fixtures';
import { scenarios } from '../../test/support/scenarios';

/** Streams, HAR files and page messages are untrusted: the core reports, it never throws. */
describe('bad input', { timeout: 120_000 }, () => {
  it('mutated SSE bodies never throw, and every event eventsource-parser dispatches is kept', () => {
    const body = new TextEncoder().encode(sse([{ id: 'a', data: rpc.progress('t', 1, 1) }, { id: 'b', data: rpc.result(1, 2) }]));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(body.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (mutations) => {
        const bytes = body.slice();
        for (const [at, value] of mutations) bytes[at] = value;
        const ex = exchange({ session: 's', body: rpc.call(1) });
        ex.chunks = [{ time: ex.startTime, data: bytes }];
        const analyzer = createAnalyzer();
        feed(analyzer, [ex]);
        analyzer.report();
        let dispatched = 0;
        createParser({ onEvent: () => dispatched++ }).feed(new TextDecoder().decode(bytes));
        const kept = [...analyzer.events(0)].filter((e) => !e.truncated && !e.idOnly).length;
        expect(kept).toBe(dispatched);
      }),
      { numRuns: 300 },
    );
  });

  it('random JSON values as event data become malformed-event findings, not exceptions', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 5 }), (values) => {
        const text = sse(values.map((data, i) => ({ id: `e${i}`, data: JSON.stringify(data) ?? 'null' })));
        const report = analyze([exchange({ session: 's', body: rpc.call(1), text })]);
        expect(report.sessions[0]!.streams[0]!.events).toBe(values.length);
      }),
      { numRuns: 300 },
    );
  });

  it('random HAR-like structures are read or refused, never thrown on', () => {
    const harish = fc.record({ log: fc.record({ entries: fc.array(fc.anything(), { maxLength: 4 }) }, { requiredKeys: [] }) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(harish, fc.anything()), (value) => {
        const result = readHar(JSON.stringify(value) ?? '');
        if (result.ok) analyze(result.exchanges);
      }),
      { numRuns: 500 },
    );
  });

  it('ids with NUL or line breaks, invalid UTF-8 and a 10 MB event are handled', () => {
    const big = 'y'.repeat(10 * 1024 * 1024);
    const weird: Exchange = exchange({ session: 's', body: rpc.call(1), text: `id: a\u0000b\ndata: ${JSON.stringify(rpc.progress('t', 1, 1))}\n\nid: big\ndata: {"jsonrpc":"2.0","method":"m","params":{"s":"${big}"}}\n\n` });
    weird.chunks.push({ time: weird.startTime + 60, data: new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0x22, 0xc3, 0x28, 0x22, 0x0a, 0x0a]) });
    const report = analyze([weird]);
    expect(report.sessions[0]!.streams[0]!.events).toBe(3);
    // Only the invalid UTF-8 event is malformed (the call itself never got a result).
    expect(report.sessions[0]!.findings.map((f) => f.code).sort()).toEqual(['malformed-event', 'result-lost']);
    // A HAR round trip of ids with line breaks must not forge extra SSE fields.
    const har = writeHar(scenarios.genuine());
    har.log.entries[1]!._sse![0]!.id = 'x\ndata: {"forged":true}';
    delete har.log.entries[1]!.response.content.text;
    const back = readHar(JSON.stringify(har));
    expect(back.ok && analyze(back.exchanges).sessions[0]!.findings.map((f) => f.code)).not.toContain('malformed-event');
  });
});
