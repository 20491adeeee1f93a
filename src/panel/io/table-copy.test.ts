import { describe, expect, it } from 'vitest';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { createAnalyzer, feed, type EventTable, type Exchange } from '../../core/index';
import { createTableCopy } from './table-copy';
import { sliceOf } from './table-slice';

/** Every field the tables hold, across both stores: rare fields, event types, lone surrogates, a cut-off block. */
function oddities(): Exchange[] {
  const text = sse([
    { id: 'a-1', event: 'message', retry: 1500, data: rpc.progress('tok-9', 1, 1) },
    { id: 'a-2', data: { jsonrpc: '2.0', id: 7, result: { stopReason: 'end_turn', _meta: { resume_token: 'rt-1' } } } },
    { id: 'a-3' },
    { event: 'custom', data: 'not json \ud800 lone' },
    { data: rpc.message('émoji 😀') },
  ]);
  return [exchange({ session: 's', body: rpc.call(7, 'x', 'tok-9'), text: `${text}id: a-4\ndata: {"cut`, end: 'reset' })];
}

const captures: Record<string, Exchange[]> = { ...Object.fromEntries(Object.entries(scenarios).map(([name, make]) => [name, make()])), oddities: oddities() };

/** Everything a view can ask a table, for every event (and what both stores agree on past the end). */
function readings(table: EventTable) {
  const rows = [];
  for (let i = 0; i < table.length; i++) {
    rows.push({
      record: table.get(i), time: table.timeAt(i), id: table.idAt(i), hasId: table.hasId(i), role: table.roleAt(i), method: table.methodAt(i),
      seqKey: table.seqKeyAt(i), seqValue: table.seqValueAt(i), resumeToken: table.resumeTokenAt(i), idKey: table.idKeyAt(i), token: table.progressTokenAt(i),
    });
  }
  const past = { record: table.get(table.length), id: table.idAt(table.length), hasId: table.hasId(table.length), method: table.methodAt(table.length) };
  return { length: table.length, rows, past, all: [...table], found: table.findIndex((r) => r.id !== undefined) };
}

describe('a table copied in slices', () => {
  for (const store of ['packed', 'plain'] as const) {
    it(`reads back as the ${store} analysis's own table, however it is sliced`, () => {
      let seen = 0;
      for (const [name, exchanges] of Object.entries(captures)) {
        const analyzer = createAnalyzer({ store });
        feed(analyzer, exchanges);
        for (let stream = 0; stream < exchanges.length; stream++) {
          const table = analyzer.events(stream);
          for (const size of [1, 2, 3, 1000]) {
            const copy = createTableCopy();
            for (let from = 0; from < table.length; from += size) copy.append(sliceOf(stream, table, from, Math.min(table.length, from + size)));
            expect(readings(copy), `${name}, stream ${stream}, slices of ${size}`).toEqual(readings(table));
          }
          seen += table.length;
        }
      }
      expect(seen).toBeGreaterThan(100);
    });
  }

  it('holds what the oddities hold: rare fields, an id-only block, a lone surrogate and a cut-off block', () => {
    const analyzer = createAnalyzer();
    feed(analyzer, oddities());
    const copy = createTableCopy();
    copy.append(sliceOf(0, analyzer.events(0), 0, analyzer.events(0).length));
    const records = [...copy];
    expect(records.map((r) => r.role)).toEqual(['progress', 'result', 'empty', 'malformed', 'notification', 'truncated']);
    expect(records[0]).toMatchObject({ retry: 1500, event: 'message', progressToken: analyzer.events(0).progressTokenAt(0), seq: { kind: 'app_seq', value: 1 } });
    expect(records[1]).toMatchObject({ stopReason: 'end_turn', idKey: '7' });
    expect(records[2]).toMatchObject({ id: 'a-3', idOnly: true });
    expect(records[3]!.data).toBe('not json \ud800 lone');
    expect(records[4]).toMatchObject({ role: 'notification', data: JSON.stringify(rpc.message('émoji 😀')) });
    expect(records[5]).toMatchObject({ truncated: true });
  });

  it('refuses a slice that does not start where the copy ends', () => {
    const analyzer = createAnalyzer();
    feed(analyzer, scenarios.genuine());
    const copy = createTableCopy();
    expect(() => copy.append(sliceOf(1, analyzer.events(1), 1, 2))).toThrow('a slice from event 1 cannot follow 0 events');
    expect(copy.length).toBe(0);
  });
});
