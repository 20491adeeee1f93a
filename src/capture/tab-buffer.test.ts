import { describe, expect, it } from 'vitest';
import type { Delivery } from '../shared/messages';
import { createTabBuffer } from './tab-buffer';

const delivery = (seq: number, n: number, text = 'x'): Delivery => ({
  from: 'relay',
  relay: 'r',
  seq,
  items: Array.from({ length: n }, () => ({ kind: 'chunk', stream: 0, time: 1, bytes: text.length, text })),
  counters: { sent: seq + n, rejected: 0, tapDropped: 0 },
});

describe('tab buffer', () => {
  it('evicts whole deliveries from the head past the item cap, and counts them', () => {
    const buffer = createTabBuffer(10, 1_000);
    for (let i = 0; i < 6; i += 1) buffer.push(delivery(i * 3, 3));
    expect(buffer.items()).toBeLessThanOrEqual(10);
    expect(buffer.evicted()).toBe(18 - buffer.items());
    const first = buffer.all()[0]!;
    expect(first.from === 'relay' ? first.seq : -1).toBe(18 - buffer.items());
  });

  it('evicts past the character cap', () => {
    const buffer = createTabBuffer(1_000, 100);
    buffer.push(delivery(0, 1, 'a'.repeat(80)));
    buffer.push(delivery(1, 1, 'b'.repeat(80)));
    expect(buffer.all()).toHaveLength(1);
    expect(buffer.evicted()).toBe(1);
  });

  it('keeps a navigation marker as one item', () => {
    const buffer = createTabBuffer(2, 1_000);
    buffer.push({ from: 'navigation', url: 'http://h/next', time: 5 });
    buffer.push(delivery(0, 2));
    expect(buffer.all()).toEqual([delivery(0, 2)]);
    expect(buffer.evicted()).toBe(1);
  });
});
