import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CapturedItem, Delivery, NetworkExchange } from '../shared/messages';
import type { PanelAdapter, PanelSink } from './adapter';
import { createCaptureStore } from './capture-store';
import { FRAME_MS } from './next-frame';

/** A test adapter: the test calls the sink directly, as the background would. */
function setup() {
  let sink!: PanelSink;
  const adapter: PanelAdapter = { connect: (s) => ((sink = s), () => undefined), attach: () => undefined, clear: () => undefined, reload: () => undefined, canReload: false };
  const store = createCaptureStore(adapter);
  store.start();
  const counters = { evictedItems: 0, evictedTabs: 0, undelivered: 0 };
  const deliver = (...deliveries: Delivery[]) => {
    sink.deliver(deliveries, counters);
    vi.advanceTimersByTime(FRAME_MS);
  };
  const streams = () => [...store.streams.value.values()].map((e) => `${e.source} ${e.request.method} ${e.end.state}`);
  return { store, deliver, streams };
}

const headers = [{ name: 'Mcp-Session-Id', value: 's1' }];
const request = { method: 'GET', url: 'http://h/mcp', headers, startTime: 1_000 };
const tapItems: CapturedItem[] = [
  { kind: 'open', stream: 0, api: 'fetch', request },
  { kind: 'response', stream: 0, response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }] } },
  { kind: 'chunk', stream: 0, time: 1_010, bytes: 40, text: 'id: 1\ndata: {"jsonrpc":"2.0","method":"x"}\n\n' },
  { kind: 'end', stream: 0, end: { state: 'reset', time: 1_020, error: 'TypeError: network error' } },
];
const fromTap = (items = tapItems): Delivery => ({ from: 'relay', relay: 'r', seq: 0, items, counters: { sent: items.length, rejected: 0, tapDropped: 0 } });
const net = (id: string, startTime = 1_004): NetworkExchange => ({
  id,
  request: { ...request, startTime },
  response: { status: 200, headers: [] },
  body: null,
  end: { state: 'reset', time: 1_020, error: 'net::ERR_CONNECTION_RESET' },
});

describe('capture store', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('feeds the analysis live and shows a request seen both ways once, with the network error', () => {
    const { store, deliver, streams } = setup();
    deliver(fromTap());
    // The background paired both reports with the tap's copy (router.ts, twins.ts).
    deliver({ from: 'network', exchange: net('n1'), twin: 'r:0' });
    deliver({ from: 'network', exchange: net('n2'), twin: 'r:0' }); // the same request reported again
    expect(streams()).toEqual(['tap GET reset']);
    expect([...store.streams.value.values()][0]!.networkError).toBe('net::ERR_CONNECTION_RESET');
    expect(store.report.value!.summary.events).toBe(1);
  });

  it('adds a request only the network panel saw', () => {
    const { deliver, streams } = setup();
    deliver({ from: 'network', exchange: net('n1', 50_000) });
    expect(streams()).toEqual(['network GET reset']);
  });

  it('holds a twin\'s error until its tap copy opens (a history where the report came first)', () => {
    const { store, deliver, streams } = setup();
    deliver({ from: 'network', exchange: net('n1'), twin: 'r:0' }, fromTap());
    expect(streams()).toEqual(['tap GET reset']);
    expect([...store.streams.value.values()][0]!.networkError).toBe('net::ERR_CONNECTION_RESET');
    expect(store.report.value!.summary.events).toBe(1);
  });

  it('replaces an analysed network copy with its body by its tap copy too (Firefox: the report\'s end is unknown, the tap\'s is not)', () => {
    const { store, deliver, streams } = setup();
    const report = { ...net('n1'), response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }] }, body: 'id: 1\ndata: {"jsonrpc":"2.0","method":"x"}\n\n', end: { state: 'unknown' as const, time: 1_020 } };
    deliver({ from: 'network', exchange: report });
    expect(streams()).toEqual(['network GET unknown']);
    // The background sends the report again as the twin of the tap open, right before it.
    deliver({ from: 'network', exchange: { ...report, body: null }, twin: 'r:0' }, fromTap());
    expect(streams()).toEqual(['tap GET reset']);
    expect(store.report.value!.summary).toMatchObject({ streams: 1, events: 1 });
  });

  it('replaces an analysed network copy with no body by its tap copy, in its place (Chrome, a dormant tap that sent its history late)', () => {
    const { store, deliver, streams } = setup();
    const later = { ...request, url: 'http://h/other', startTime: 9_000 };
    deliver({ from: 'network', exchange: net('n1') }, { from: 'network', exchange: { ...net('n2', 9_000), request: later } });
    expect(streams()).toEqual(['network GET reset', 'network GET reset']);
    expect(store.report.value!.summary.events).toBe(0);
    deliver({ from: 'network', exchange: net('n1'), twin: 'r:0' }, fromTap());
    expect(streams()).toEqual(['tap GET reset', 'network GET reset']);
    expect([...store.streams.value.values()][0]!.networkError).toBe('net::ERR_CONNECTION_RESET');
    expect(store.report.value!.summary).toMatchObject({ streams: 2, events: 1 });
    expect(store.drops.value.total).toBe(0);
  });

  it('shows a request the tap and the debugger both copied once, as the copy kept, and labels the debugger\'s own copies', () => {
    const { store, deliver, streams } = setup();
    const debuggerCopy = (items: CapturedItem[], seq: number, merged?: number[]): Delivery => ({ from: 'relay', relay: 'd', seq, items, counters: { sent: seq + items.length, rejected: 0, tapDropped: 0 }, by: 'debugger', ...(merged ? { merged } : {}) });
    // The background merged the debugger's copy (its first half, then the rest) into the tap's.
    deliver(fromTap(), debuggerCopy(tapItems.slice(0, 2), 0, [0]), debuggerCopy(tapItems.slice(2), 2));
    expect(streams()).toEqual(['tap GET reset']);
    expect(store.report.value!.summary.events).toBe(1);
    expect(store.drops.value.total).toBe(0); // the merged copy's later items are neither orphans nor losses
    // A request only the debugger saw is its own stream, labelled as the debugger's.
    const alone = tapItems.map((i) => ({ ...i, stream: 5 }));
    deliver(debuggerCopy(alone, 4));
    expect(streams()).toEqual(['tap GET reset', 'debugger GET reset']);
    // Firefox's network filter makes the background's copies there: they keep that producer.
    const filtered = tapItems.map((i) => ({ ...i, stream: 0 }));
    deliver({ from: 'relay', relay: 'f', seq: 0, items: filtered, counters: { sent: filtered.length, rejected: 0, tapDropped: 0 }, by: 'network-filter' });
    expect(streams()).toEqual(['tap GET reset', 'debugger GET reset', 'network-filter GET reset']);
  });

  it('counts a gap in the relay numbering as dropped', () => {
    const { store, deliver } = setup();
    deliver({ ...fromTap(tapItems.slice(0, 2)) });
    deliver({ from: 'relay', relay: 'r', seq: 5, items: tapItems.slice(3), counters: { sent: 6, rejected: 0, tapDropped: 0 } });
    expect(store.drops.value.total).toBe(3);
  });

  it('keeps at most the buffer cap from the settings, and counts what it drops', () => {
    const { store, deliver } = setup();
    store.setMaxExchanges(2);
    const opens: CapturedItem[] = [0, 1, 2, 3].map((stream) => ({ kind: 'open', stream, api: 'fetch', request }));
    deliver(fromTap(opens));
    expect(store.streams.value.size).toBe(2);
    expect(store.drops.value.panelDropped).toBe(2);
    expect(store.drops.value.total).toBe(2);
  });

  it('evicts the oldest events past the event cap, counts exactly what went, and keeps the stream parsing', () => {
    const { store, deliver } = setup();
    store.setMaxEvents(10);
    const event = (n: number) => `id: ${n}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"_meta":{"app_seq":${n}}}}\n\n`;
    const chunk = (text: string): CapturedItem => ({ kind: 'chunk', stream: 0, time: 1_000, bytes: text.length, text });
    const items: CapturedItem[] = [tapItems[0]!, tapItems[1]!];
    // One chunk per event, but event 25 is split across two chunks (no cut may fall between them).
    for (let n = 1; n <= 30; n += 1) items.push(...(n === 25 ? [chunk(event(n).slice(0, 12)), chunk(event(n).slice(12))] : [chunk(event(n))]));
    deliver(fromTap(items));
    const kept = store.report.value!.summary.events;
    expect(kept).toBeLessThanOrEqual(10);
    expect(kept).toBeGreaterThan(0);
    expect(store.drops.value.panelEvicted).toBe(30 - kept);
    expect(store.drops.value.total).toBe(30 - kept);
    expect([...store.events(0)].map((e) => Number(e.id))).toEqual(Array.from({ length: kept }, (_, i) => 31 - kept + i));
    expect(store.report.value!.sessions[0]!.findings).toEqual([]);
  });

  it('keeps the page\'s navigations once each, in time order', () => {
    const { store, deliver } = setup();
    deliver({ from: 'navigation', url: 'http://h/b', time: 20 }, { from: 'navigation', url: 'http://h/a', time: 10 });
    deliver({ from: 'navigation', url: 'http://h/b', time: 20 }); // the same history, sent again to a re-attached panel
    expect(store.navigations.value).toEqual([{ url: 'http://h/a', time: 10 }, { url: 'http://h/b', time: 20 }]);
  });
});
