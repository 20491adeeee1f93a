import { describe, expect, it } from 'vitest';
import { isTapBatch, isTapHello, type Message, type TapItem } from '../../shared/messages';
import { createTapEmitter } from './emitter';
import { MAX_TAP_HISTORY_BYTES } from './history';
import type { Primordials } from './primordials';

function setup() {
  const posted: Message[] = [];
  const timers: (() => void)[] = [];
  const p = { post: (m: unknown) => void posted.push(m as Message), setTimeout: (fn: () => void) => void timers.push(fn), now: () => 1 } as unknown as Primordials;
  const out = createTapEmitter(p);
  const runTimers = () => timers.splice(0).forEach((fn) => fn());
  const items = () => posted.filter(isTapBatch).flatMap((b) => b.items);
  return { out, posted, runTimers, items };
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
});
