import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isRelayBatch, isRelayStatus, make, type Message, type TapItem } from '../shared/messages';
import { MAX_BATCH_BYTES, MAX_CHUNK_BYTES } from '../shared/tap-validation';
import type { PortClient } from '../shared/port-client';
import { batchChars, startRelay } from './relay';

/** The relay's end of the tap's port: what the relay posts lands in `toTap`. */
class FakePort extends EventTarget {
  toTap: unknown[] = [];
  postMessage(data: unknown) {
    this.toTap.push(data);
  }
  start() {}
}

const messageEvent = (data: unknown, extra: object = {}) => Object.assign(new Event('message'), { data, ports: [], ...extra });

function setup(options: { handOver?: boolean } = {}) {
  const target = new EventTarget();
  const win = target as unknown as Window;
  const tapPort = new FakePort();
  const sent: Message[] = [];
  let control: (message: unknown) => void = () => undefined;
  const port: PortClient = { send: (m) => void sent.push(m), start: () => undefined, close: () => undefined };
  const relay = startRelay({
    win,
    relay: 'r1',
    port: (_counters, onMessage) => ((control = onMessage), port),
    onRuntimeMessage: () => undefined,
  });
  // What the tap does at document_start: hand over its port in the one window message it posts.
  const handOver = () => win.dispatchEvent(messageEvent(make('tap-port', {}), { source: win, ports: [tapPort] }));
  if (options.handOver !== false) handOver();
  /** A message from the tap, over its port. */
  const post = (data: unknown) => tapPort.dispatchEvent(messageEvent(data));
  /** A message posted on the page's window, which is never the tap's (after its port). */
  const postOnWindow = (data: unknown, source: unknown = win) => win.dispatchEvent(messageEvent(data, { source }));
  const batches = () => sent.filter(isRelayBatch);
  const attach = (attached = true) => control(make('bg-attach', { attached }));
  return { relay, post, postOnWindow, handOver, sent, batches, attach, win, tapPort };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const open = (stream: number): TapItem => ({ kind: 'open', stream, api: 'fetch', request: { method: 'POST', url: 'http://a/mcp', headers: [], startTime: 1 } });
const chunk = (stream: number, data: Uint8Array | string = bytes('data: 1\n\n')): TapItem => ({ kind: 'chunk', stream, time: 2, data });
const batch = (items: TapItem[], dropped = 0) => make('tap-batch', { items, dropped, evicted: 0 });

describe('relay', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('announces a tap that holds captures once, and tells the tap when a panel attaches', () => {
    const { post, sent, attach, tapPort } = setup();
    post(make('tap-hello', {}));
    post(make('tap-hello', {}));
    vi.runAllTimers();
    expect(sent).toHaveLength(1);
    expect(isRelayStatus(sent[0])).toBe(true);
    attach();
    expect(tapPort.toTap).toEqual([make('relay-attach', { attached: true })]);
  });

  it('forwards a batch decoded and numbered from 0, as a fresh copy', () => {
    const { post, batches } = setup();
    const items = [open(0), chunk(0)];
    post(batch(items));
    post(batch([chunk(0, bytes('data: 2\n\n'))]));
    expect(batches().map((b) => b.seq)).toEqual([0, 2]);
    expect(batches()[0]!.items[0]).toEqual(items[0]);
    expect(batches()[0]!.items[0]).not.toBe(items[0]);
    expect(batches()[0]!.items[1]).toEqual({ kind: 'chunk', stream: 0, time: 2, bytes: 9, text: 'data: 1\n\n' });
    expect(batches()[1]!.counters.sent).toBe(3);
  });

  it('decodes a character split across chunks, and keeps a cut one at the end as U+FFFD', () => {
    const { post, batches } = setup();
    const euro = bytes('€'); // three bytes
    post(batch([open(0), chunk(0, euro.slice(0, 1)), chunk(0, euro.slice(1)), chunk(0, euro.slice(0, 2))]));
    post(batch([{ kind: 'end', stream: 0, end: { state: 'reset', time: 5, error: 'net::ERR_CONNECTION_RESET' } }]));
    const texts = batches().flatMap((b) => b.items.flatMap((i) => (i.kind === 'chunk' ? [i.text] : [])));
    expect(texts.join('')).toBe('€\uFFFD');
  });

  it('ignores messages that are not ours without counting them', () => {
    const { relay, postOnWindow } = setup();
    postOnWindow({ type: 'something-else' });
    postOnWindow('hello');
    expect(relay.counters().rejected).toBe(0);
  });

  it('drops and counts forged, malformed and oversized messages', () => {
    const { relay, post, postOnWindow, batches } = setup();
    post({ ...batch([open(0)]), v: 2 }); // other version
    postOnWindow(batch([open(0)]), {}); // from another window
    postOnWindow(batch([open(0)])); // well-formed, but on the window: a page script's
    postOnWindow(make('tap-port', {})); // a second port, from a page script
    post({ ...batch([]), items: {} }); // not a list
    post(batch([chunk(5)])); // stream never opened
    post(batch([open(1), chunk(1, new Uint8Array(MAX_CHUNK_BYTES + 1))])); // oversized chunk
    post(batch([{ ...open(2), request: { ...open(2), headers: 'x' } } as unknown as TapItem])); // bad headers
    post(batch([open(3), open(3)])); // opened twice
    post(batch([open(4), { kind: 'chunk', stream: 4, time: 1, data: [1, 2, 3] } as unknown as TapItem])); // bytes that are not bytes
    expect(relay.counters().rejected).toBe(10);
    expect(batches().flatMap((b) => b.items.map((i) => `${i.kind}:${i.stream}`))).toEqual(['open:1', 'open:3', 'open:4']);
  });

  it('rejects a batch whose chunks together exceed the batch cap', () => {
    const { relay, post } = setup();
    post(batch([open(0)]));
    const n = MAX_BATCH_BYTES / MAX_CHUNK_BYTES + 1;
    post(batch(Array.from({ length: n }, () => chunk(0, new Uint8Array(MAX_CHUNK_BYTES)))));
    expect(relay.counters().rejected).toBe(n);
  });

  it('keeps the largest drop count the tap reported', () => {
    const { relay, post } = setup();
    post(batch([open(0)], 4));
    post(batch([chunk(0)], 2));
    expect(relay.counters().tapDropped).toBe(4);
  });

  it('takes the tap\'s port in a capturing listener that hides it from page listeners', () => {
    const seenByPage: unknown[] = [];
    const { win, handOver, post, batches, relay } = setup({ handOver: false });
    // A page listener, registered after the relay (as every page script is).
    win.addEventListener('message', (e) => void seenByPage.push((e as MessageEvent).data), true);
    handOver();
    post(batch([open(0)]));
    expect(seenByPage).toEqual([]);
    expect(batches()).toHaveLength(1);
    // A second hand-over is the page's: counted, and the first port stays the only one.
    win.dispatchEvent(messageEvent(make('tap-port', {}), { source: win, ports: [new FakePort()] }));
    expect(relay.counters().rejected).toBe(1);
  });

  it('keeps the first loss the tap reports for each API in its counters, and rejects a malformed one', () => {
    const { relay, post, sent } = setup();
    post(make('tap-lost', { api: 'fetch', time: 5 }));
    post(make('tap-lost', { api: 'fetch', time: 9 }));
    post(make('tap-lost', { api: 'xhr', time: 7 }));
    post({ ...make('tap-lost', { api: 'fetch', time: 1 }), api: '<b>websocket</b>' });
    vi.runAllTimers();
    expect(relay.counters().tapLost).toEqual([{ api: 'fetch', time: 5 }, { api: 'xhr', time: 7 }]);
    expect(relay.counters().rejected).toBe(1);
    const status = sent.filter(isRelayStatus).at(-1)!;
    expect(status.counters.tapLost).toHaveLength(2);
  });
});

describe('batchChars', () => {
  it('weighs a batch by the body text of its chunks, and other messages as nothing', () => {
    const batch = make('relay-batch', {
      relay: 'r',
      seq: 0,
      counters: { sent: 3, rejected: 0, tapDropped: 0 },
      items: [
        { kind: 'open', stream: 0, api: 'fetch', request: { method: 'POST', url: 'http://a/mcp', headers: [], startTime: 1 } },
        { kind: 'chunk', stream: 0, time: 2, bytes: 3, text: 'abc' },
        { kind: 'chunk', stream: 0, time: 3, bytes: 2, text: 'de' },
      ],
    });
    expect(batchChars(batch)).toBe(5);
    expect(batchChars(make('relay-status', { relay: 'r', counters: { sent: 3, rejected: 0, tapDropped: 0 } }))).toBe(0);
  });
});
