import { describe, expect, it } from 'vitest';
import { CHROME_NO_BODY, sameRequest, toNetworkExchange, type HarEntryLike } from './network-exchange';

const entry = (over: Partial<HarEntryLike['request']> = {}, error?: string): HarEntryLike => ({
  startedDateTime: new Date(1_000_000).toISOString(),
  time: 500,
  request: { method: 'GET', url: 'http://h/mcp', headers: [{ name: 'Mcp-Session-Id', value: 's1' }, { name: 'Last-Event-ID', value: 'e9' }], ...over },
  response: { status: 200, headers: [{ name: 'Content-Type', value: 'text/event-stream' }], ...(error ? { _error: error } : {}) },
});

describe('network reconciliation', () => {
  it('turns a reset stream without a body (Chrome) into a reset exchange', () => {
    const x = toNetworkExchange('n1', entry({}, 'net::ERR_CONNECTION_RESET'), null)!;
    expect(x.end).toEqual({ state: 'reset', time: 1_000_500, error: 'net::ERR_CONNECTION_RESET', bodyAbsent: CHROME_NO_BODY });
    expect(x.body).toBeNull();
  });

  it('says a Worker\'s stream that Chrome kept no body of was not captured, and claims no error', () => {
    const x = toNetworkExchange('n5', entry(), null, 'chrome')!;
    expect(x.end).toEqual({ state: 'complete', time: 1_000_500, bodyAbsent: CHROME_NO_BODY });
  });

  it('gives a Firefox stream an unknown end, unless its body stops inside an event', () => {
    expect(toNetworkExchange('n6', entry(), 'id: 1\ndata: {}\n\n', 'firefox')!.end).toEqual({ state: 'unknown', time: 1_000_500 });
    expect(toNetworkExchange('n7', entry(), 'id: 1\ndata: {}\n\nid: 2\ndata: {"jsonrpc"', 'firefox')!.end).toEqual({ state: 'reset', time: 1_000_500, inferred: true });
  });

  it('ignores requests that are not MCP', () => {
    expect(toNetworkExchange('n2', entry({ headers: [] }), 'data: hi\n\n')).toBeNull();
  });

  it('recognises the legacy endpoint stream by its first event', () => {
    expect(toNetworkExchange('n3', entry({ headers: [] }), 'event: endpoint\ndata: /messages?sessionId=1\n\n')).not.toBeNull();
  });

  it('matches the same request seen by the tap, and not a different resume', () => {
    const net = toNetworkExchange('n4', entry(), 'data: x\n\n')!.request;
    const tap = { ...net, startTime: net.startTime + 40, headers: [...net.headers] };
    expect(sameRequest(net, tap)).toBe(true);
    expect(sameRequest(net, { ...tap, headers: [{ name: 'mcp-session-id', value: 's1' }, { name: 'last-event-id', value: 'e10' }] })).toBe(false);
    expect(sameRequest(net, { ...tap, startTime: net.startTime + 60_000 })).toBe(false);
  });
});
