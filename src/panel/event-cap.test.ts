import { describe, expect, it } from 'vitest';
import { evictOldestEvents } from './event-cap';
import type { LoggedExchange } from './exchange-log';

const exchange = (key: string, texts: string[]): LoggedExchange => ({
  key,
  source: 'tap',
  request: { method: 'GET', url: 'http://h/mcp', headers: [], startTime: 0 },
  chunks: texts.map((data, i) => ({ time: i, data })),
  end: { state: 'open' },
});

describe('evictOldestEvents', () => {
  it('cuts the oldest exchange first, only after a chunk that ends an event, and returns the events cut', () => {
    const a = exchange('a', ['data: 1\n\n', 'data: 2\n\ndata: 3', '\n\n']);
    const b = exchange('b', ['data: 4\n\n']);
    const counts = new Map([[a, [1, 1, 1]], [b, [1]]]);
    // Two events asked for: the chunk that completes event 2 also starts event 3, so the cut
    // moves on to the end of event 3.
    expect(evictOldestEvents([a, b], (e) => counts.get(e), 2)).toBe(3);
    expect(a.chunks).toEqual([]);
    expect(b.chunks).toHaveLength(1);
    expect(counts.get(a)).toEqual([]);
  });

  it('cuts an event stream inside a chunk, after its last blank line, keeping the start of the next event', () => {
    const a = exchange('a', ['data: 1\n\ndata: 2\n\nda', 'ta: 3\n\n']);
    a.response = { status: 200, headers: [{ name: 'Content-Type', value: 'text/event-stream' }] };
    const counts = new Map([[a, [2, 1]]]);
    expect(evictOldestEvents([a], (e) => counts.get(e), 1)).toBe(2);
    expect(a.chunks.map((c) => c.data)).toEqual(['da', 'ta: 3\n\n']);
    expect(counts.get(a)).toEqual([0, 1]);
  });

  it('never cuts a body whose events come only at its end', () => {
    const json = exchange('j', ['{"jsonrpc":"2.0",\n\n', '"id":1}']);
    expect(evictOldestEvents([json], () => [0, 0], 5)).toBe(0);
    expect(json.chunks).toHaveLength(2);
  });
});
