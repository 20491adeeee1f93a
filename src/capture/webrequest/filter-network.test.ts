import { describe, expect, it } from 'vitest';
import type { CapturedItem } from '../../shared/messages';
import { MAX_DEBUGGER_STREAMS } from '../debugger/cdp-network';
import { createFilterNetwork } from './filter-network';
import type { RequestDetails, StreamFilter } from './webrequest-api';

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

function fakeFilter() {
  const written: string[] = [];
  const calls: string[] = [];
  const filter: StreamFilter = {
    ondata: null,
    onstop: null,
    onerror: null,
    error: '',
    write: (data) => void written.push(new TextDecoder().decode(data)),
    close: () => void calls.push('close'),
    disconnect: () => void calls.push('disconnect'),
  };
  return { filter, written, calls };
}

const post = (requestId: string, extra: Partial<RequestDetails> = {}): RequestDetails => ({
  requestId,
  url: 'http://h/mcp',
  method: 'POST',
  tabId: 1,
  timeStamp: 1_000,
  requestBody: { raw: [{ bytes: bytes('{"jsonrpc":"2.0","id":1,"method":"tools/call"}') }] },
  ...extra,
});

function setup(wanted = () => true) {
  const items: CapturedItem[] = [];
  const filters = new Map<string, ReturnType<typeof fakeFilter>>();
  let drops = 0;
  let next = 0;
  let clock = 2_000;
  const net = createFilterNetwork({
    nextStream: () => next++,
    emit: (i) => void items.push(i),
    drop: () => void (drops += 1),
    filterResponseData: (id) => {
      const f = fakeFilter();
      filters.set(id, f);
      return f.filter;
    },
    wanted,
    now: () => clock,
  });
  const open = (id: string, extra: Partial<RequestDetails> = {}) => {
    net.beforeRequest(post(id, extra));
    net.beforeSendHeaders({ ...post(id, extra), requestHeaders: [{ name: 'Content-Type', value: 'application/json' }] });
    net.headersReceived({ ...post(id, extra), statusCode: 200, responseHeaders: [{ name: 'Content-Type', value: 'text/event-stream' }] });
  };
  return { net, items, filters, open, drops: () => drops, tick: (ms: number) => void (clock += ms) };
}

describe('webRequest capture (StreamFilter)', () => {
  it('follows an MCP request: open, response, each chunk at its arrival, every byte passed on unchanged', () => {
    const { net, items, filters, open, tick } = setup();
    open('r1');
    net.beforeRequest({ ...post('r2'), url: 'http://h/a.js', method: 'GET', requestBody: null }); // not MCP
    net.headersReceived({ ...post('r2'), url: 'http://h/a.js', method: 'GET', statusCode: 200, responseHeaders: [] });
    expect([...filters.keys()]).toEqual(['r1']);
    const f = filters.get('r1')!;
    f.filter.ondata!({ data: bytes('id: 1\n') });
    tick(100);
    f.filter.ondata!({ data: bytes('data: {}\n\n') });
    expect(f.written).toEqual(['id: 1\n', 'data: {}\n\n']);
    f.filter.onstop!();
    expect(f.calls).toEqual(['close']);
    net.completed({ ...post('r1'), timeStamp: 2_200 });
    expect(items.map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'chunk', 'end']);
    expect(items.filter((i) => i.kind === 'chunk').map((i) => (i.kind === 'chunk' ? [i.text, i.time, i.bytes] : []))).toEqual([
      ['id: 1\n', 2_000, 6],
      ['data: {}\n\n', 2_100, 10],
    ]);
    expect(items[0]).toMatchObject({ kind: 'open', request: { method: 'POST', url: 'http://h/mcp', startTime: 1_000, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' } });
    expect(items.at(-1)).toEqual({ kind: 'end', stream: 0, end: { state: 'complete', time: 2_200 } });
  });

  it('waits for the filter\'s last bytes when the request\'s end comes first', () => {
    const { net, items, filters, open } = setup();
    open('r1');
    net.completed({ ...post('r1'), timeStamp: 2_200 });
    filters.get('r1')!.filter.ondata!({ data: bytes('data: {}\n\n') });
    expect(items.map((i) => i.kind)).toEqual(['open', 'response', 'chunk']);
    filters.get('r1')!.filter.onstop!();
    expect(items.map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'end']);
  });

  it('ends a stream that errors as reset, and one its page aborted as cancelled', () => {
    const { net, items, open } = setup();
    open('r1');
    open('r2');
    net.errorOccurred({ ...post('r1'), timeStamp: 3_000, error: 'NS_ERROR_NET_PARTIAL_TRANSFER' });
    net.errorOccurred({ ...post('r2'), timeStamp: 3_000, error: 'NS_BINDING_ABORTED' });
    const ends = items.filter((i) => i.kind === 'end').map((i) => (i.kind === 'end' ? i.end : null));
    expect(ends).toEqual([
      { state: 'reset', time: 3_000, error: 'NS_ERROR_NET_PARTIAL_TRANSFER' },
      { state: 'cancelled', time: 3_000, error: 'NS_BINDING_ABORTED' },
    ]);
  });

  it('turned off mid-stream: the filter hands the rest back to Firefox, and the stream ends unknown, never complete', () => {
    const { net, items, filters, open } = setup();
    open('r1');
    net.detach(5_000);
    expect(filters.get('r1')!.calls).toEqual(['disconnect']);
    expect(items.at(-1)).toEqual({ kind: 'end', stream: 0, end: { state: 'unknown', time: 5_000 } });
    // Bytes still in flight go through unrecorded.
    filters.get('r1')!.filter.ondata!({ data: bytes('late') });
    expect(filters.get('r1')!.written).toEqual(['late']);
    expect(items.filter((i) => i.kind === 'chunk')).toEqual([]);
  });

  it('leaves a request it is not to take (the page tap has it) unfiltered', () => {
    const { items, filters, open } = setup(() => false);
    open('r1');
    expect(filters.size).toBe(0);
    expect(items).toEqual([]);
  });

  it('recognises a GET by its response\'s MCP headers, and judges a redirect at its final response', () => {
    const { net, items, filters } = setup();
    const get = { ...post('r1'), method: 'GET', requestBody: null };
    net.beforeRequest(get);
    net.headersReceived({ ...get, statusCode: 307, responseHeaders: [{ name: 'Location', value: '/mcp2' }] });
    expect(filters.size).toBe(0);
    net.beforeRequest(get);
    net.headersReceived({ ...get, statusCode: 200, responseHeaders: [{ name: 'Mcp-Session-Id', value: 's1' }] });
    expect(items.map((i) => i.kind)).toEqual(['open', 'response']);
  });

  it('counts the requests past its cap instead of following them', () => {
    const { items, open, drops } = setup();
    for (let i = 0; i <= MAX_DEBUGGER_STREAMS; i += 1) open(`r${i}`);
    expect(items.filter((i) => i.kind === 'open')).toHaveLength(MAX_DEBUGGER_STREAMS);
    expect(drops()).toBe(1);
  });
});
