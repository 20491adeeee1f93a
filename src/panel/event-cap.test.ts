import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../core/index';
import { evictOldestEvents, type ChunkMarks } from './event-cap';
import type { LoggedExchange } from './exchange-log';

/** An exchange fed to a real analysis, with what it said of each chunk. */
function fed(key: string, texts: string[], contentType = 'text/event-stream'): { exchange: LoggedExchange; marks: ChunkMarks } {
  const exchange: LoggedExchange = {
    key,
    source: 'tap',
    request: { method: 'GET', url: 'http://h/mcp', headers: [{ name: 'mcp-session-id', value: 's' }], startTime: 0 },
    response: { status: 200, headers: [{ name: 'Content-Type', value: contentType }] },
    chunks: texts.map((data, i) => ({ time: i, data })),
    end: { state: 'open' },
  };
  const analyzer = createAnalyzer();
  const index = analyzer.open(exchange.request);
  analyzer.respond(index, exchange.response!);
  const marks: ChunkMarks = { events: [], ends: [] };
  for (const chunk of exchange.chunks) {
    const before = analyzer.events(index).length;
    marks.ends.push(analyzer.chunk(index, chunk));
    marks.events.push(analyzer.events(index).length - before);
  }
  return { exchange, marks };
}

describe('evictOldestEvents', () => {
  it('cuts the oldest exchange first, where the analysis said events end, and returns the events cut', () => {
    const a = fed('a', ['data: 1\n\n', 'data: 2\n\ndata: 3', '\n\n']);
    const b = fed('b', ['data: 4\n\n']);
    const marks = new Map([[a.exchange, a.marks], [b.exchange, b.marks]]);
    expect(a.marks).toEqual({ events: [1, 1, 1], ends: [9, 9, 2] });
    // Two events asked for: they end inside the second chunk, whose unfinished event 3 stays.
    expect(evictOldestEvents([a.exchange, b.exchange], (e) => marks.get(e), 2)).toBe(2);
    expect(a.exchange.chunks.map((c) => c.data)).toEqual(['data: 3', '\n\n']);
    expect(b.exchange.chunks).toHaveLength(1);
    expect(a.marks).toEqual({ events: [0, 1], ends: [-1, 2] });
  });

  it('cuts inside a chunk after its last complete event, whatever the line ends, keeping the start of the next', () => {
    const a = fed('a', ['data: 1\r\n\r\ndata: 2\r\rda', 'ta: 3\n\n']);
    expect(a.marks.ends).toEqual([20, 7]);
    expect(evictOldestEvents([a.exchange], () => a.marks, 1)).toBe(2);
    expect(a.exchange.chunks.map((c) => c.data)).toEqual(['da', 'ta: 3\n\n']);
    expect(a.marks.events).toEqual([0, 1]);
  });

  it('never cuts a body whose events come only at its end', () => {
    const json = fed('j', ['{"jsonrpc":"2.0",\n\n', '"id":1}'], 'application/json');
    expect(json.marks.ends).toEqual([-1, -1]);
    expect(evictOldestEvents([json.exchange], () => json.marks, 5)).toBe(0);
    expect(json.exchange.chunks).toHaveLength(2);
  });
});
