import { describe, expect, it } from 'vitest';
import type { CapturedItem } from '../../shared/messages';
import { createCdpNetwork, MAX_DEBUGGER_CANDIDATES, MAX_DEBUGGER_STREAMS } from './cdp-network';

const b64 = (text: string) => btoa(text);
const mcpRequest = (requestId: string, wallTime = 1_000) => ({
  requestId,
  request: { url: 'http://h/mcp', method: 'POST', headers: { 'content-type': 'application/json' }, postData: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' },
  timestamp: 10,
  wallTime,
});

function setup(buffered: string | null = '', whole: string | null = null, openAtResponse = false) {
  const items: CapturedItem[] = [];
  let drops = 0;
  let next = 0;
  const net = createCdpNetwork({ nextStream: () => next++, emit: (i) => void items.push(i), drop: () => void (drops += 1), enableBody: async () => buffered, wholeBody: async () => whole, openAtResponse });
  return { net, items, drops: () => drops };
}

describe('CDP network capture', () => {
  it('follows an MCP request: open, response, each chunk at its time, and a reset', async () => {
    const { net, items } = setup(b64('id: 1\n'));
    net.event('Network.requestWillBeSent', mcpRequest('r1'));
    net.event('Network.requestWillBeSent', { ...mcpRequest('r2'), request: { url: 'http://h/a.js', method: 'GET', headers: {} } }); // not MCP
    net.event('Network.responseReceived', { requestId: 'r1', timestamp: 10.1, response: { status: 200, headers: { 'content-type': 'text/event-stream' } } });
    await Promise.resolve();
    net.event('Network.dataReceived', { requestId: 'r1', timestamp: 10.2, data: b64('data: {}\n\n') });
    net.event('Network.dataReceived', { requestId: 'r2', timestamp: 10.2, data: b64('x') });
    net.event('Network.loadingFailed', { requestId: 'r1', timestamp: 10.3, errorText: 'net::ERR_CONNECTION_RESET' });
    expect(items.map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'chunk', 'end']);
    expect(items.filter((i) => i.kind === 'chunk').map((i) => (i.kind === 'chunk' ? [i.text, Math.round(i.time)] : []))).toEqual([
      ['id: 1\n', 1_000_100],
      ['data: {}\n\n', 1_000_200],
    ]);
    expect(items.at(-1)).toEqual({ kind: 'end', stream: 0, end: { state: 'reset', time: 1_000_300, error: 'net::ERR_CONNECTION_RESET' } });
  });

  it('opens a page request at its response, with the request\'s own start time, and counts one pushed out while it waited', async () => {
    const { net, items, drops } = setup('', null, true);
    net.event('Network.requestWillBeSent', mcpRequest('r1'));
    expect(items).toEqual([]); // the tap's copy, made before the request left the page, goes first
    net.event('Network.responseReceived', { requestId: 'r1', timestamp: 10.1, response: { status: 200, headers: {} } });
    expect(items.map((i) => i.kind)).toEqual(['open', 'response']);
    expect(items[0]!.kind === 'open' && items[0]!.request.startTime).toBe(1_000_000);
    net.event('Network.requestWillBeSent', mcpRequest('r2'));
    for (let n = 0; n < MAX_DEBUGGER_CANDIDATES; n += 1) net.event('Network.requestWillBeSent', { ...mcpRequest(`x${n}`), request: { url: 'http://h/a.js', method: 'GET', headers: {} } });
    expect(drops()).toBe(1);
  });

  it('keeps a short response that ended before streaming was enabled: its whole body, then its end', async () => {
    const { net, items } = setup(null, b64('{"jsonrpc":"2.0","id":1,"result":{}}'));
    net.event('Network.requestWillBeSent', mcpRequest('r1'));
    net.event('Network.responseReceived', { requestId: 'r1', timestamp: 10.1, response: { status: 200, headers: { 'content-type': 'application/json' } } });
    net.event('Network.dataReceived', { requestId: 'r1', timestamp: 10.2 }); // no data: streaming was not on
    net.event('Network.loadingFinished', { requestId: 'r1', timestamp: 10.3 });
    await new Promise((r) => setTimeout(r, 0));
    expect(items.map((i) => i.kind)).toEqual(['open', 'response', 'chunk', 'end']);
    expect(items[2]!.kind === 'chunk' && items[2]!.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });

  it('ends a stream still open when the debugger detaches as unknown, never complete', () => {
    const { net, items } = setup();
    net.event('Network.requestWillBeSent', mcpRequest('r1'));
    net.detach(5_000);
    expect(items.at(-1)).toEqual({ kind: 'end', stream: 0, end: { state: 'unknown', time: 5_000 } });
  });

  it('recognises a request by its response\'s MCP headers', () => {
    const { net, items } = setup();
    net.event('Network.requestWillBeSent', { ...mcpRequest('r1'), request: { url: 'http://h/mcp', method: 'GET', headers: { accept: 'text/event-stream' } } });
    net.event('Network.responseReceived', { requestId: 'r1', timestamp: 10.1, response: { status: 200, headers: { 'Mcp-Session-Id': 's1' } } });
    expect(items.map((i) => i.kind)).toEqual(['open', 'response']);
  });

  it('counts the requests past its cap instead of following them', () => {
    const { net, items, drops } = setup();
    for (let i = 0; i <= MAX_DEBUGGER_STREAMS; i += 1) net.event('Network.requestWillBeSent', mcpRequest(`r${i}`));
    expect(items).toHaveLength(MAX_DEBUGGER_STREAMS);
    expect(drops()).toBe(1);
  });
});
