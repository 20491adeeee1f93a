import { describe, expect, it } from 'vitest';
import { make, type Message, type RelayBatch, type TapItem } from '../shared/messages';
import { MAX_CHUNK_CHARS } from '../shared/tap-validation';
import type { PortClient } from './port-client';
import { startRelay } from './relay';

function setup() {
  const win = new EventTarget() as unknown as Window;
  const sent: Message[] = [];
  const port: PortClient = { send: (m) => void sent.push(m), start: () => undefined, close: () => undefined };
  const relay = startRelay({ win, relay: 'r1', port: () => port, onRuntimeMessage: () => undefined });
  const post = (data: unknown, source: unknown = win) => win.dispatchEvent(Object.assign(new Event('message'), { data, source }));
  const batches = () => sent.filter((m): m is RelayBatch => m.type === 'relay-batch');
  return { relay, post, batches };
}

const open = (stream: number): TapItem => ({ kind: 'open', stream, api: 'fetch', request: { method: 'POST', url: 'http://a/mcp', headers: [], startTime: 1 } });
const chunk = (stream: number, text = 'data: 1\n\n'): TapItem => ({ kind: 'chunk', stream, time: 2, bytes: text.length, text });

describe('relay', () => {
  it('forwards a valid batch as a fresh copy, numbered from 0', () => {
    const { post, batches } = setup();
    const items = [open(0), chunk(0), { kind: 'end', stream: 0, end: { state: 'complete', time: 3 } } as TapItem];
    post(make('tap-batch', { items, dropped: 0 }));
    expect(batches()).toHaveLength(1);
    expect(batches()[0]!.seq).toBe(0);
    expect(batches()[0]!.items).toEqual(items);
    expect(batches()[0]!.items[0]).not.toBe(items[0]);
  });

  it('numbers items consecutively across batches', () => {
    const { post, batches } = setup();
    post(make('tap-batch', { items: [open(0), chunk(0)], dropped: 0 }));
    post(make('tap-batch', { items: [chunk(0)], dropped: 0 }));
    expect(batches().map((b) => b.seq)).toEqual([0, 2]);
    expect(batches()[1]!.counters.sent).toBe(3);
  });

  it('ignores messages that are not ours without counting them', () => {
    const { relay, post } = setup();
    post({ type: 'something-else' });
    post('hello');
    expect(relay.counters().rejected).toBe(0);
  });

  it('drops and counts forged, malformed and oversized messages', () => {
    const { relay, post, batches } = setup();
    post({ source: 'mcp-stream-lens/tap', v: 2, type: 'tap-batch', items: [open(0)], dropped: 0 }); // other version
    post(make('tap-batch', { items: [open(0)], dropped: 0 }), {}); // from another window
    post({ ...make('tap-batch', { items: [], dropped: 0 }), items: {} }); // not a list
    post(make('tap-batch', { items: [chunk(5)], dropped: 0 })); // stream never opened
    post(make('tap-batch', { items: [open(1), chunk(1, 'x'.repeat(MAX_CHUNK_CHARS + 1))], dropped: 0 })); // oversized chunk
    post(make('tap-batch', { items: [{ ...open(2), request: { ...open(2), headers: 'x' } } as unknown as TapItem], dropped: 0 })); // bad headers
    post(make('tap-batch', { items: [open(3), open(3)], dropped: 0 })); // opened twice
    expect(relay.counters().rejected).toBe(7);
    // Only the valid opens went through.
    expect(batches().flatMap((b) => b.items.map((i) => `${i.kind}:${i.stream}`))).toEqual(['open:1', 'open:3']);
  });

  it('rejects a batch whose texts together exceed the batch cap, item by item', () => {
    const { relay, post, batches } = setup();
    post(make('tap-batch', { items: [open(0)], dropped: 0 }));
    const big = Array.from({ length: 9 }, () => chunk(0, 'y'.repeat(MAX_CHUNK_CHARS)));
    post(make('tap-batch', { items: big, dropped: 0 }));
    expect(relay.counters().rejected).toBe(9);
    expect(batches()).toHaveLength(1);
  });

  it('keeps the largest drop count the tap reported', () => {
    const { relay, post } = setup();
    post(make('tap-batch', { items: [open(0)], dropped: 4 }));
    post(make('tap-batch', { items: [chunk(0)], dropped: 2 }));
    expect(relay.counters().tapDropped).toBe(4);
  });
});
