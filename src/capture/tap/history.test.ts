import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TapItem } from '../../shared/messages';
import { createTapHistory } from './history';

const open = (stream: number): TapItem => ({ kind: 'open', stream, api: 'fetch', request: { method: 'GET', url: 'http://a/mcp', headers: [], startTime: 1 } });
/** A chunk whose every byte says which chunk and which byte it is. */
const chunk = (n: number, size: number): TapItem => ({ kind: 'chunk', stream: 0, time: n, data: Uint8Array.from({ length: size }, (_, i) => (n * 31 + i) & 0xff) });

describe('tap history', () => {
  it('keeps the newest chunks byte for byte within its byte cap, wrapping around its ring, and counts the rest', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 60 }), (sizes) => {
        const maxBytes = 1_000;
        const history = createTapHistory(10_000, maxBytes);
        const pushed = sizes.map((size, n) => chunk(n, size));
        history.push(open(0));
        for (const item of pushed) history.push(item);
        const kept = history.take();
        expect(kept[0]).toEqual(open(0));
        const chunks = kept.slice(1);
        // The newest chunks, in order, with the very bytes that were pushed.
        expect(chunks).toEqual(pushed.slice(pushed.length - chunks.length));
        const bytes = chunks.reduce((sum, c) => sum + (c.kind === 'chunk' ? (c.data as Uint8Array).byteLength : 0), 0);
        expect(bytes).toBeLessThanOrEqual(maxBytes);
        expect(history.evicted()).toBe(pushed.length - chunks.length);
      }),
    );
  });

  it('copies what it keeps: the page may change or transfer its chunk afterwards', () => {
    const history = createTapHistory(100, 1_000);
    const pageChunk = new Uint8Array([1, 2, 3]);
    const transferred = new Uint8Array([4, 5]);
    history.push({ kind: 'chunk', stream: 0, time: 1, data: pageChunk });
    history.push({ kind: 'chunk', stream: 0, time: 2, data: transferred });
    pageChunk.fill(9);
    structuredClone(transferred, { transfer: [transferred.buffer] });
    expect(history.take().map((i) => (i.kind === 'chunk' ? [...(i.data as Uint8Array)] : null))).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('evicts a chunk larger than its byte cap at once, with every chunk before it', () => {
    const history = createTapHistory(100, 1_000);
    history.push(chunk(0, 600));
    history.push(chunk(1, 1_500));
    history.push(chunk(2, 10));
    expect(history.take()).toEqual([chunk(2, 10)]);
    expect(history.evicted()).toBe(2);
  });

  it('counts text chunks against the same byte cap', () => {
    const history = createTapHistory(100, 1_000);
    history.push(chunk(0, 600));
    history.push({ kind: 'chunk', stream: 1, time: 1, data: 'x'.repeat(600) });
    expect(history.take()).toEqual([{ kind: 'chunk', stream: 1, time: 1, data: 'x'.repeat(600) }]);
  });
});
