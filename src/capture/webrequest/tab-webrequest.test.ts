import { describe, expect, it } from 'vitest';
import type { CapturedItem } from '../../shared/messages';
import { firefoxFidelity } from './firefox-fidelity';
import type { Listener, RequestDetails, StreamFilter, WebRequestApi, WebRequestEvent } from './webrequest-api';

function fakeApi() {
  const listeners = new Map<string, { fn: Listener; filter: { urls: string[]; tabId?: number }; spec?: string[] }[]>();
  const event = (name: string): WebRequestEvent => ({
    addListener(fn, filter, ...rest: [string[]?]) {
      // Like Firefox: onErrorOccurred refuses an extraInfoSpec argument, even an empty one.
      if (name === 'onErrorOccurred' && rest.length > 0) throw new Error('Incorrect argument types for webRequest.onErrorOccurred.');
      listeners.set(name, [...(listeners.get(name) ?? []), { fn, filter, ...(rest[0] ? { spec: rest[0] } : {}) }]);
    },
    removeListener(fn) {
      listeners.set(name, (listeners.get(name) ?? []).filter((l) => l.fn !== fn));
    },
    hasListener: (fn) => (listeners.get(name) ?? []).some((l) => l.fn === fn),
  });
  const filters: string[] = [];
  const api: WebRequestApi = {
    onBeforeRequest: event('onBeforeRequest'),
    onBeforeSendHeaders: event('onBeforeSendHeaders'),
    onHeadersReceived: event('onHeadersReceived'),
    onCompleted: event('onCompleted'),
    onErrorOccurred: event('onErrorOccurred'),
    filterResponseData(requestId) {
      filters.push(requestId);
      return { ondata: null, onstop: null, onerror: null, error: '', write() {}, close() {}, disconnect() {} } satisfies StreamFilter;
    },
  };
  const fire = (name: string, d: RequestDetails) => (listeners.get(name) ?? []).forEach((l) => l.fn(d));
  const count = () => [...listeners.values()].reduce((n, l) => n + l.length, 0);
  return { api, listeners, filters, fire, count };
}

const mcp = (requestId: string, documentUrl: string): RequestDetails => ({
  requestId,
  url: 'http://h/mcp',
  method: 'POST',
  tabId: 7,
  timeStamp: 1_000,
  documentUrl,
  requestBody: { raw: [{ bytes: new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"tools/call"}').buffer as ArrayBuffer }] },
});

function setup(tapOpened = false) {
  const fake = fakeApi();
  const statuses: string[] = [];
  const delivered: CapturedItem[] = [];
  let granted = false;
  const fidelity = firefoxFidelity(() => (granted ? fake.api : undefined), {
    worker: 'w',
    deliver: (_tab, _relay, _seq, items) => void delivered.push(...items),
    status: (tabId, attached, _workers, error) => void statuses.push(`${tabId} ${attached}${error ? ` ${error}` : ''}`),
    tapOpened: () => tapOpened,
    tabUrl: async () => 'http://h/page',
  });
  return { ...fake, fidelity, statuses, delivered, grant: () => void (granted = true) };
}

const response = (d: RequestDetails): RequestDetails => ({ ...d, statusCode: 200, responseHeaders: [{ name: 'Content-Type', value: 'text/event-stream' }] });

describe('webRequest capture of a tab', () => {
  it('adds no listener until the switch asks, and says why when the permissions are missing', () => {
    const { fidelity, count, statuses } = setup();
    expect(count()).toBe(0);
    fidelity.start(7);
    expect(count()).toBe(0);
    expect(statuses).toEqual(['7 false the webRequest permissions are not granted']);
  });

  it('listens on the tab only (blocking onHeadersReceived), and removes every listener when stopped', async () => {
    const { fidelity, count, listeners, statuses, grant } = setup();
    grant();
    fidelity.start(7);
    expect(count()).toBe(5);
    expect([...listeners.values()].flat().every((l) => l.filter.tabId === 7)).toBe(true);
    expect(listeners.get('onHeadersReceived')![0]!.spec).toEqual(['blocking', 'responseHeaders']);
    fidelity.stop(7);
    expect(count()).toBe(0);
    expect(statuses).toEqual(['7 true', '7 false']);
  });

  it('takes a Worker\'s request, and leaves the page\'s own (its document is the tab\'s) to the tap', async () => {
    const { fidelity, fire, filters, grant } = setup();
    grant();
    fidelity.start(7);
    await Promise.resolve(); // the tab's URL
    for (const d of [mcp('worker', 'http://h/worker.js'), mcp('page', 'http://h/page#x')]) {
      fire('onBeforeRequest', d);
      fire('onHeadersReceived', response(d));
    }
    expect(filters).toEqual(['worker']);
  });

  it('leaves a request the page tap has opened to the tap', async () => {
    const { fidelity, fire, filters, grant } = setup(true);
    grant();
    fidelity.start(7);
    const d = mcp('r1', 'http://h/frame.html');
    fire('onBeforeRequest', d);
    fire('onHeadersReceived', response(d));
    expect(filters).toEqual([]);
  });
});
