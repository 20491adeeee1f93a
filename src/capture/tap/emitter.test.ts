import { describe, expect, it } from 'vitest';
import { isTapBatch, isTapHello, type Message, type TapItem } from '../../shared/messages';
import { createTapEmitter } from './emitter';
import { MAX_TAP_HISTORY_BYTES } from './history';
import type { Primordials } from './primordials';

function setup() {
  const posted: Message[] = [];
  const transfers: ArrayBuffer[][] = [];
  const timers: (() => void)[] = [];
  const copyBytes = (bytes: Uint8Array) => {
    const copy = bytes.slice();
    return { copy, buffer: copy.buffer };
  };
  const post = (m: unknown, transfer: ArrayBuffer[] = []) => {
    posted.push(m as Message);
    transfers.push(transfer);
  };
  const p = { post, copyBytes, setTimeout: (fn: () => void) => void timers.push(fn), now: () => 1 } as unknown as Primordials;
  const out = createTapEmitter(p);
  const runTimers = () => timers.splice(0).forEach((fn) => fn());
  const items = () => posted.filter(isTapBatch).flatMap((b) => b.items);
  return { out, posted, transfers, runTimers, items };
}

const open = (stream: number): TapItem => ({ kind: 'open', stream, api: 'fetch', request: { method: 'GET', url: 'http://a/mcp', headers: [], startTime: 1 } });
const chunk = (stream: number, size: number): TapItem => ({ kind: 'chunk', stream, time: 1, data: new Uint8Array(size) });

describe('tap emitter', () => {
  it('posts only one empty hello while no panel is attached', () => {
    const { out, posted, runTimers } = setup();
    out.emit(open(0));
    out.emit(chunk(0, 10));
    runTimers();
    expect(posted).toHaveLength(1);
    expect(isTapHello(posted[0])).toBe(true);
  });

  it('posts the history in order when a panel attaches, then live items in one batch per task', () => {
    const { out, posted, runTimers, items } = setup();
    out.emit(open(0));
    out.emit(chunk(0, 10));
    out.setAttached(true);
    out.emit(chunk(0, 20));
    runTimers();
    expect(items().map((i) => i.kind)).toEqual(['open', 'chunk', 'chunk']);
    expect(posted.filter(isTapBatch)).toHaveLength(1);
  });

  it('keeps stream records and counts the body chunks its history evicts', () => {
    const { out, runTimers, items, posted } = setup();
    out.emit(open(0));
    const size = 256 * 1024;
    const n = Math.ceil((2 * MAX_TAP_HISTORY_BYTES) / size);
    for (let i = 0; i < n; i += 1) out.emit(chunk(0, size));
    out.setAttached(true);
    runTimers();
    const got = items();
    const evicted = Math.max(...posted.filter(isTapBatch).map((b) => b.evicted));
    expect(got[0]!.kind).toBe('open');
    expect(evicted).toBeGreaterThan(0);
    expect(got.length + evicted).toBe(1 + n);
  });

  it('moves the buffers of its own copies with their batch, never the bytes it was given', () => {
    const { out, posted, transfers, runTimers, items } = setup();
    out.setAttached(true);
    out.emit(open(0));
    const given = [new Uint8Array([1, 2]), new Uint8Array([3])];
    for (const data of given) out.emit({ kind: 'chunk', stream: 0, time: 1, data });
    out.emit({ kind: 'chunk', stream: 0, time: 1, data: 'text' });
    runTimers();
    expect(posted.filter(isTapBatch)).toHaveLength(1);
    const sent = items().flatMap((i) => (i.kind === 'chunk' && typeof i.data !== 'string' ? [i.data] : []));
    expect(sent.map((d) => [...d])).toEqual([[1, 2], [3]]);
    expect(transfers.at(-1)).toEqual(sent.map((d) => d.buffer));
    for (const data of given) expect(transfers.flat()).not.toContain(data.buffer);
  });
});
