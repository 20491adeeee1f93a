import { describe, expect, it } from 'vitest';
import { PORT, make, type CapturedItem, type Delivery, type Message, type NetworkExchange } from '../shared/messages';
import { createRouter, MAX_TABS, type RouterPort } from './router';
import { END_SKEW_MS } from './twins';
import { createSessionHistory, type SessionArea } from './session-history';

/** storage.session as a Map: it outlives the routers (workers) made over it. */
function memoryArea(): SessionArea & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async () => Object.fromEntries([...data].map(([k, v]) => [k, structuredClone(v)])),
    set: async (items) => void Object.entries(items).forEach(([k, v]) => data.set(k, structuredClone(v))),
    remove: async (keys) => void keys.forEach((k) => data.delete(k)),
  };
}

function fakePort(name: string, tabId?: number) {
  const got: Message[] = [];
  const listeners: ((m: unknown) => void)[] = [];
  const port: RouterPort = {
    name,
    ...(tabId === undefined ? {} : { sender: { tab: { id: tabId } } }),
    postMessage: (m) => void got.push(structuredClone(m) as Message), // a real port copies too
    disconnect: () => undefined,
    onMessage: { addListener: (fn) => void listeners.push(fn) },
    onDisconnect: { addListener: () => undefined },
  };
  return { port, got, say: (m: Message) => listeners.forEach((fn) => fn(m)) };
}

const request = { method: 'GET', url: 'http://h/mcp', headers: [{ name: 'Mcp-Session-Id', value: 's1' }], startTime: 1_000 };
const event = (n: number): CapturedItem => ({ kind: 'chunk', stream: 0, time: 1_000 + n, bytes: 10, text: `id: ${n}\ndata: {"jsonrpc":"2.0","method":"x"}\n\n` });
const batch = (seq: number, items: CapturedItem[]) => make('relay-batch', { relay: 'r', seq, items, counters: { sent: seq + items.length, rejected: 0, tapDropped: 0 } });
const net = (id: string): NetworkExchange => ({ id, request: { ...request, startTime: 1_004 }, response: { status: 200, headers: [] }, body: 'id: 1\n\n', end: { state: 'complete', time: 1_500 } });
const deliveries = (got: Message[]): Delivery[] => got.flatMap((m) => (m.type === 'bg-deliver' ? m.deliveries : []));
const items = (got: Message[]) => deliveries(got).flatMap((d) => (d.from === 'relay' ? d.items : []));

/** A router with tab 1's relay, DevTools page and panel connected, the panel attached. */
function tabOne() {
  const r = createRouter({ worker: 'a', broadcast: () => undefined });
  const relay = fakePort(PORT.relay, 1);
  const devtools = fakePort(PORT.devtools);
  const panel = fakePort(PORT.panel);
  for (const p of [relay, devtools, panel]) r.connect(p.port);
  panel.say(make('panel-hello', { tabId: 1 }));
  return { r, relay, devtools, panel };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('router', () => {
  it('keeps a tab\'s history through a worker restart, and keeps a relay\'s repeats once', async () => {
    const area = memoryArea();
    const broadcasts: Message[] = [];
    const first = createSessionHistory(area);
    const a = createRouter({ worker: 'a', broadcast: (_t, m) => void broadcasts.push(m), history: first });
    await settle(); // its (empty) saved history is read
    const relay = fakePort(PORT.relay, 7);
    a.connect(relay.port);
    relay.say(make('relay-hello', { relay: 'r', counters: { sent: 0, rejected: 0, tapDropped: 0 } }));
    relay.say(batch(0, [{ kind: 'open', stream: 0, api: 'fetch', request }]));
    for (let n = 1; n <= 300; n += 1) relay.say(batch(n, [event(n)]));
    await first.settled();

    // The worker stops; a new one starts over the same area, and the relay sends its replay window again.
    const b = createRouter({ worker: 'b', broadcast: () => undefined, history: createSessionHistory(area) });
    const again = fakePort(PORT.relay, 7);
    b.connect(again.port);
    again.say(make('relay-hello', { relay: 'r', counters: { sent: 301, rejected: 0, tapDropped: 0 } }));
    for (let n = 45; n <= 300; n += 1) again.say(batch(n, [event(n)]));
    const panel = fakePort(PORT.panel);
    b.connect(panel.port);
    panel.say(make('panel-hello', { tabId: 7 }));
    await settle();
    const seen = items(panel.got);
    expect(seen).toHaveLength(301);
    expect(seen[0]!.kind).toBe('open');
    expect(seen.filter((i) => i.kind === 'chunk').map((i) => (i.kind === 'chunk' ? i.time - 1_000 : 0))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const bg = panel.got.find((m) => m.type === 'bg-deliver');
    expect(bg?.type === 'bg-deliver' && bg.counters.evictedItems).toBe(0);
  });

  it('forgets a cleared tab in the saved history too', async () => {
    const area = memoryArea();
    const history = createSessionHistory(area);
    const a = createRouter({ worker: 'a', broadcast: () => undefined, history });
    const relay = fakePort(PORT.relay, 3);
    const panel = fakePort(PORT.panel);
    a.connect(relay.port);
    a.connect(panel.port);
    relay.say(batch(0, [{ kind: 'open', stream: 0, api: 'fetch', request }, event(1)]));
    panel.say(make('panel-hello', { tabId: 3 }));
    panel.say(make('panel-clear', { tabId: 3 }));
    await settle();
    await history.settled();
    expect([...area.data.keys()].filter((k) => k.startsWith('d:'))).toEqual([]);
  });

  it('tells the tab chooser how many items of tabs past the tab cap it let go', () => {
    const r = createRouter({ worker: 'a', broadcast: () => undefined });
    for (let tabId = 1; tabId <= MAX_TABS + 1; tabId++) {
      const relay = fakePort(PORT.relay, tabId);
      r.connect(relay.port);
      relay.say(batch(0, [{ kind: 'open', stream: 0, api: 'fetch', request }, event(1)]));
    }
    const chooser = fakePort(PORT.panel);
    r.connect(chooser.port);
    chooser.say(make('panel-hello', { tabId: null }));
    const list = chooser.got.find((m) => m.type === 'bg-tabs');
    expect(list?.type === 'bg-tabs' && [list.tabs.length, list.dropped]).toEqual([MAX_TABS, 2]);
  });

  it('pairs a network report with the tap copy of its request, in either order', () => {
    const { r, relay, devtools, panel } = tabOne();
    // Tap first (the usual order): the report is the twin of stream 0.
    relay.say(batch(0, [{ kind: 'open', stream: 0, api: 'fetch', request }]));
    devtools.say(make('devtools-exchange', { tabId: 1, exchange: net('n1'), dropped: 0 }));
    // Report first: network-only, then rewritten as the twin of stream 1 when its open comes.
    devtools.say(make('devtools-exchange', { tabId: 1, exchange: { ...net('n2'), request: { ...request, startTime: 9_000 } }, dropped: 0 }));
    relay.say(batch(1, [{ kind: 'open', stream: 1, api: 'fetch', request: { ...request, startTime: 9_001 } }]));
    const network = deliveries(panel.got).filter((d) => d.from === 'network');
    expect(network.map((d) => (d.from === 'network' ? [d.exchange.id, d.twin ?? null, d.exchange.body] : []))).toEqual([
      ['n1', 'r:0', null],
      ['n2', null, 'id: 1\n\n'],
      ['n2', 'r:1', null],
    ]);
    // A later panel is handed the history with the report already paired.
    const late = fakePort(PORT.panel);
    r.connect(late.port);
    late.say(make('panel-hello', { tabId: 1 }));
    expect(deliveries(late.got).filter((d) => d.from === 'network').map((d) => (d.from === 'network' ? d.twin : null))).toEqual(['r:0', 'r:1']);
  });

  it('pairs no report with the copy of a look-alike request that started after the reported one ended, in either order', () => {
    const { relay, devtools, panel } = tabOne();
    // Two identical requests (a client that initializes again), each within the other's match
    // window: the first ended at 1,500, the second started at 2,500.
    const again = (startTime: number) => ({ ...request, startTime });
    devtools.say(make('devtools-exchange', { tabId: 1, exchange: net('n1'), dropped: 0 }));
    relay.say(batch(0, [{ kind: 'open', stream: 0, api: 'fetch', request: again(2_500) }]));
    // The other order: a copy of a later request is open when an earlier request's report comes.
    relay.say(batch(1, [{ kind: 'open', stream: 1, api: 'fetch', request: again(12_500) }]));
    devtools.say(make('devtools-exchange', { tabId: 1, exchange: { ...net('n2'), request: again(11_000), end: { state: 'complete', time: 11_500 } }, dropped: 0 }));
    const network = deliveries(panel.got).filter((d) => d.from === 'network');
    expect(network.map((d) => (d.from === 'network' ? [d.exchange.id, d.twin ?? null] : []))).toEqual([
      ['n1', null],
      ['n2', null],
    ]);
    // Within the skew of the report's end, the copy is still its request's.
    devtools.say(make('devtools-exchange', { tabId: 1, exchange: { ...net('n3'), request: again(21_400), end: { state: 'complete', time: 21_500 } }, dropped: 0 }));
    relay.say(batch(2, [{ kind: 'open', stream: 2, api: 'fetch', request: again(21_500 + END_SKEW_MS) }]));
    expect(deliveries(panel.got).filter((d) => d.from === 'network').map((d) => (d.from === 'network' ? [d.exchange.id, d.twin ?? null] : []))).toEqual([
      ['n1', null],
      ['n2', null],
      ['n3', null],
      ['n3', 'r:2'],
    ]);
  });

  it('merges the debugger\'s copy of a page request with the tap\'s, in either order, and keeps a request only the debugger saw', async () => {
    const area = memoryArea();
    const r = createRouter({ worker: 'a', broadcast: () => undefined, history: createSessionHistory(area) });
    await settle();
    const relay = fakePort(PORT.relay, 1);
    const devtools = fakePort(PORT.devtools);
    const panel = fakePort(PORT.panel);
    for (const p of [relay, devtools, panel]) r.connect(p.port);
    panel.say(make('panel-hello', { tabId: 1 }));
    const counters = (sent: number) => ({ sent, rejected: 0, tapDropped: 0 });
    const at = (startTime: number) => ({ ...request, startTime });
    // Tap first: the debugger's copy (stream 0) is merged into the tap's.
    relay.say(batch(0, [{ kind: 'open', stream: 0, api: 'fetch', request: at(1_000) }]));
    r.captured('debugger', 1, 'd', 0, [{ kind: 'open', stream: 0, api: 'fetch', request: at(1_002) }], counters(1));
    // Debugger first: the tap's copy (stream 1) is merged into the debugger's (stream 1).
    r.captured('debugger', 1, 'd', 1, [{ kind: 'open', stream: 1, api: 'fetch', request: at(9_000) }], counters(2));
    relay.say(batch(1, [{ kind: 'open', stream: 1, api: 'fetch', request: at(9_001) }]));
    // Only Firefox's network filter saw it: kept, not merged, and labelled as its copy.
    r.captured('network-filter', 1, 'f', 0, [{ kind: 'open', stream: 0, api: 'fetch', request: { ...at(20_000), url: 'http://h/other' } }], counters(1));
    await settle();
    const relayed = (got: Message[]) =>
      deliveries(got).flatMap((d) => (d.from === 'relay' ? [[d.relay, d.by ?? 'tap', d.merged ?? []] as const] : []));
    expect(relayed(panel.got)).toEqual([
      ['r', 'tap', []],
      ['d', 'debugger', [0]],
      ['d', 'debugger', []],
      ['r', 'tap', [1]],
      ['f', 'network-filter', []],
    ]);
    // The network report of the first request pairs with the copy shown, not the merged one.
    devtools.say(make('devtools-exchange', { tabId: 1, exchange: net('n1'), dropped: 0 }));
    await settle();
    expect(deliveries(panel.got).filter((d) => d.from === 'network').map((d) => (d.from === 'network' ? d.twin : null))).toEqual(['r:0']);
    // A restarted worker's router restores the pairing: a third copy of a merged request is not merged again.
    const b = createRouter({ worker: 'b', broadcast: () => undefined, history: createSessionHistory(area) });
    await settle();
    const later = fakePort(PORT.panel);
    b.connect(later.port);
    later.say(make('panel-hello', { tabId: 1 }));
    b.captured('debugger', 1, 'd2', 0, [{ kind: 'open', stream: 0, api: 'fetch', request: at(1_001) }], counters(1));
    await settle();
    // The saved history comes back with each copy's producer as saved (the debugger's as before).
    expect(relayed(later.got)).toEqual([...relayed(panel.got), ['d2', 'debugger', []]]);
  });

  it('has the taps of a tab send while its DevTools is open, and go quiet when it closes', () => {
    const broadcasts: [number, Message][] = [];
    const r = createRouter({ worker: 'a', broadcast: (t, m) => void broadcasts.push([t, m]) });
    let disconnect = () => undefined as void;
    const devtools = fakePort(PORT.devtools);
    devtools.port.onDisconnect.addListener = (fn) => void (disconnect = fn);
    r.connect(devtools.port);
    devtools.say(make('devtools-hello', { tabId: 4 }));
    disconnect();
    expect(broadcasts.map(([t, m]) => [t, m.type === 'bg-attach' && m.attached])).toEqual([
      [4, true],
      [4, false],
    ]);
  });

  it('tells a panel that joins a tab whose full-fidelity capture is already on where it stands', () => {
    const calls: string[] = [];
    const router = createRouter({
      worker: 'a',
      broadcast: () => undefined,
      fidelity: {
        start: (tabId) => {
          calls.push(`start ${tabId}`);
          router.fidelityStatus(tabId, true, 1);
        },
        stop: (tabId) => {
          calls.push(`stop ${tabId}`);
          router.fidelityStatus(tabId, false, 0);
        },
      },
    });
    const status = (got: Message[]) => got.filter((m) => m.type === 'bg-fidelity').map((m) => (m.type === 'bg-fidelity' ? `${m.attached} ${m.workers}` : ''));
    const first = fakePort(PORT.panel);
    const second = fakePort(PORT.panel);
    router.connect(first.port);
    router.connect(second.port);
    first.say(make('panel-hello', { tabId: 5, fidelity: true }));
    // The capture runs already: the second panel starts nothing, and is told it is attached.
    second.say(make('panel-hello', { tabId: 5, fidelity: true }));
    expect(calls).toEqual(['start 5']);
    expect(status(first.got)).toEqual(['true 1']);
    expect(status(second.got)).toEqual(['true 1']);
    // The first lets go; the capture stays on for the second, which hears the same again when it asks.
    first.say(make('panel-fidelity', { tabId: 5, on: false }));
    second.say(make('panel-fidelity', { tabId: 5, on: true }));
    expect(calls).toEqual(['start 5']);
    expect(status(second.got)).toEqual(['true 1', 'true 1']);
    second.say(make('panel-fidelity', { tabId: 5, on: false }));
    expect(calls).toEqual(['start 5', 'stop 5']);
    expect(status(second.got).at(-1)).toBe('false 0');
  });
});
