import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CapturedItem } from '../../shared/messages';
import { createTabDebugger, SHARED_WORKER_SCAN_MS, type Debuggee, type DebuggerApi, type DebugTarget } from './tab-debugger';

/** chrome.debugger as far as the tab debugger uses it: records attaches, replays events. */
function fakeApi(targets: DebugTarget[], onAutoAttach: (emit: (source: Debuggee, method: string, params: object) => void) => void = () => undefined) {
  const attached = new Set<string>();
  const key = (d: Debuggee) => (d.tabId !== undefined ? `tab:${d.tabId}` : `target:${d.targetId}`);
  const onEvent: ((source: Debuggee, method: string, params?: object) => void)[] = [];
  const api: DebuggerApi = {
    attach: async (d) => void attached.add(key(d)),
    detach: async (d) => {
      if (!attached.delete(key(d))) throw new Error('not attached');
    },
    sendCommand: async (d, method) => {
      // Chrome reports the targets auto-attach already reaches while the command runs.
      if (method === 'Target.setAutoAttach' && d.tabId !== undefined && d.sessionId === undefined) onAutoAttach(emit);
      return {};
    },
    getTargets: async () => targets,
    onEvent: { addListener: (fn) => void onEvent.push(fn) },
    onDetach: { addListener: () => undefined },
  };
  const emit = (source: Debuggee, method: string, params: object) => onEvent.forEach((fn) => fn(source, method, params));
  return { api, attached, emit };
}

const page: DebugTarget = { id: 'P', type: 'page', url: 'http://site.test/app', tabId: 7 };
const shared: DebugTarget = { id: 'S', type: 'worker', url: 'http://site.test/shared.js' };
const foreign: DebugTarget = { id: 'F', type: 'worker', url: 'http://other.test/shared.js' };
const extension: DebugTarget = { id: 'E', type: 'worker', url: 'chrome-extension://abc/service-worker-loader.js' };
const serviceWorker: DebugTarget = { id: 'W', type: 'worker', url: 'http://site.test/sw.js' };
const mcp = (requestId: string) => ({
  requestId,
  request: { url: 'http://site.test/mcp', method: 'POST', headers: { 'content-type': 'application/json' }, postData: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' },
  timestamp: 1,
  wallTime: 1_000,
});

describe('tab debugger', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('attaches the shared workers of the tab\'s origin only, follows their requests, and detaches them with the tab', async () => {
    const targets = [page, foreign, extension, serviceWorker];
    // The page's service worker is reached by the tab's auto-attach: it is not attached by id as well.
    const { api, attached, emit } = fakeApi(targets, (say) => say({ tabId: 7 }, 'Target.attachedToTarget', { sessionId: 'sw-session', targetInfo: { type: 'service_worker', targetId: 'W' } }));
    const delivered: CapturedItem[] = [];
    const workers: number[] = [];
    const d = createTabDebugger({ api, worker: 'w', deliver: (_t, _r, _s, items) => void delivered.push(...items), status: (_t, _a, n) => void workers.push(n) });
    await d.start(7);
    // A shared worker started after the debugger attached is found by the next listing.
    targets.push(shared);
    await vi.advanceTimersByTimeAsync(SHARED_WORKER_SCAN_MS);
    expect([...attached].sort()).toEqual(['tab:7', 'target:S']);
    expect(workers.at(-1)).toBe(2); // the service worker's session and the shared worker

    emit({ targetId: 'S' }, 'Network.requestWillBeSent', mcp('r1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered.map((i) => i.kind)).toEqual(['open']); // a Worker's request opens when sent (the tap never has it)
    await vi.advanceTimersByTimeAsync(SHARED_WORKER_SCAN_MS * 3);
    expect([...attached].sort()).toEqual(['tab:7', 'target:S']); // attached once

    await d.stop(7);
    await vi.advanceTimersByTimeAsync(0);
    expect([...attached]).toEqual([]);
    expect(delivered.at(-1)).toMatchObject({ kind: 'end', end: { state: 'unknown' } }); // detached mid-stream: not "complete"
  });

  it('holds back a page request\'s open until its response, so the tap\'s copy comes first', async () => {
    const { api, emit } = fakeApi([page]);
    const delivered: CapturedItem[] = [];
    const d = createTabDebugger({ api, worker: 'w', deliver: (_t, _r, _s, items) => void delivered.push(...items), status: () => undefined });
    await d.start(7);
    emit({ tabId: 7 }, 'Network.requestWillBeSent', mcp('p1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toEqual([]);
    emit({ tabId: 7 }, 'Network.responseReceived', { requestId: 'p1', timestamp: 1.1, response: { status: 200, headers: {} } });
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered.map((i) => i.kind)).toEqual(['open', 'response']);
  });
});
