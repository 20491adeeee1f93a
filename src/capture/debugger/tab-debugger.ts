import type { CapturedItem, RelayCounters } from '../../shared/messages';
import { createCdpNetwork, debuggerCounters } from './cdp-network';

/** A debuggee: the inspected tab, or one of its Workers (a flat CDP session under it). */
export interface Debuggee {
  tabId?: number;
  sessionId?: string;
}

/** The slice of `chrome.debugger` (Chrome 125+, for flat sessions) the capture needs; tests pass a fake. */
export interface DebuggerApi {
  attach(target: Debuggee, version: string): Promise<void>;
  detach(target: Debuggee): Promise<void>;
  sendCommand(target: Debuggee, method: string, params?: object): Promise<unknown>;
  onEvent: { addListener(fn: (source: Debuggee, method: string, params?: object) => void): void };
  onDetach: { addListener(fn: (source: Debuggee, reason: string) => void): void };
}

/** Worker sessions of one tab followed at once; past it new Workers are not (and are counted). */
export const MAX_WORKER_SESSIONS = 64;

export interface TabDebuggerDeps {
  api: DebuggerApi;
  /** Numbered like a relay's: `relay` is this debugger's id, items count from `seq`. */
  deliver(tabId: number, relay: string, seq: number, items: CapturedItem[], counters: RelayCounters): void;
  /** The debugger is (or no longer is) attached to the tab; `error` when attaching failed. */
  status(tabId: number, attached: boolean, workers: number, error?: string): void;
  worker: string;
}

const WORKER_TYPES = new Set(['worker', 'shared_worker', 'service_worker']);

/**
 * Full-fidelity capture of inspected tabs, through `chrome.debugger`: attached only while a
 * panel of the tab asks for it, detached when it stops asking or goes away. Every Worker the
 * tab starts is auto-attached (flat sessions), and its MCP requests are followed live with
 * `Network.streamResourceContent`, ended by `loadingFinished` or `loadingFailed`. The page's
 * own MCP requests are followed too, for those the tap missed; the router merges the copy of a
 * request the tap also made (twins.ts), so nothing is shown twice.
 */
export function createTabDebugger(deps: TabDebuggerDeps) {
  interface TabRun {
    relay: string;
    sent: number;
    dropped: number;
    streams: number;
    queue: CapturedItem[];
    scheduled: boolean;
    sessions: Map<string, ReturnType<typeof createCdpNetwork>>;
    /** The page target's own requests: those the tap missed (made before it ran, or from a frame it is not in). */
    page: ReturnType<typeof createCdpNetwork>;
    detached: boolean;
  }
  const runs = new Map<number, TabRun>();
  let attachments = 0;

  function flush(tabId: number, run: TabRun): void {
    run.scheduled = false;
    if (run.queue.length === 0) return;
    const items = run.queue;
    run.queue = [];
    const seq = run.sent;
    run.sent += items.length;
    deps.deliver(tabId, run.relay, seq, items, debuggerCounters(run.sent, run.dropped));
  }
  const emitter = (tabId: number, run: TabRun) => (item: CapturedItem) => {
    run.queue.push(item);
    if (run.scheduled) return;
    run.scheduled = true;
    setTimeout(() => flush(tabId, run), 0);
  };

  function network(tabId: number, run: TabRun, sessionId: string | undefined) {
    return createCdpNetwork({
      openAtResponse: sessionId === undefined,
      nextStream: () => run.streams++,
      emit: emitter(tabId, run),
      drop: () => void (run.dropped += 1),
      enableBody: (requestId) =>
        deps.api
          .sendCommand({ tabId, sessionId }, 'Network.streamResourceContent', { requestId })
          .then((r) => ((r as { bufferedData?: string }).bufferedData ?? null))
          .catch(() => null),
      wholeBody: (requestId) =>
        deps.api
          .sendCommand({ tabId, sessionId }, 'Network.getResponseBody', { requestId })
          .then((r) => {
            const { body, base64Encoded } = r as { body: string; base64Encoded: boolean };
            if (base64Encoded) return body;
            // Text: base64 of its UTF-8 bytes, like every other chunk (a loop: no argument-count limit).
            let binary = '';
            for (const byte of new TextEncoder().encode(body)) binary += String.fromCharCode(byte);
            return btoa(binary);
          })
          .catch(() => null),
    });
  }

  async function onAttached(tabId: number, run: TabRun, params: { sessionId: string; targetInfo: { type: string } }): Promise<void> {
    const child = { tabId, sessionId: params.sessionId };
    if (WORKER_TYPES.has(params.targetInfo.type)) {
      if (run.sessions.size >= MAX_WORKER_SESSIONS) run.dropped += 1;
      else {
        run.sessions.set(params.sessionId, network(tabId, run, params.sessionId));
        await deps.api.sendCommand(child, 'Network.enable', {}).catch(() => undefined);
        // A Worker's own Workers too.
        await deps.api.sendCommand(child, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }).catch(() => undefined);
        deps.status(tabId, true, run.sessions.size);
      }
    }
    await deps.api.sendCommand(child, 'Runtime.runIfWaitingForDebugger').catch(() => undefined);
  }

  function ended(tabId: number, run: TabRun): void {
    if (run.detached) return;
    run.detached = true;
    for (const followed of [run.page, ...run.sessions.values()]) followed.detach(Date.now());
    flush(tabId, run);
    runs.delete(tabId);
    deps.status(tabId, false, 0);
  }

  deps.api.onEvent.addListener((source, method, params) => {
    const run = source.tabId === undefined ? undefined : runs.get(source.tabId);
    if (!run || !params) return;
    const tabId = source.tabId!;
    if (method === 'Target.attachedToTarget') return void onAttached(tabId, run, params as { sessionId: string; targetInfo: { type: string } });
    if (method === 'Target.detachedFromTarget') {
      const id = (params as { sessionId?: string }).sessionId;
      const followed = id === undefined ? undefined : run.sessions.get(id);
      if (followed) followed.detach(Date.now()), run.sessions.delete(id!);
      return;
    }
    if (!method.startsWith('Network.')) return;
    const followed = source.sessionId === undefined ? run.page : run.sessions.get(source.sessionId);
    followed?.event(method, params as Record<string, unknown>);
  });
  // The user closed Chrome's "is debugging this browser" bar, or the tab went away.
  deps.api.onDetach.addListener((source) => {
    const run = source.tabId === undefined ? undefined : runs.get(source.tabId);
    if (run) ended(source.tabId!, run);
  });

  return {
    async start(tabId: number): Promise<void> {
      if (runs.has(tabId)) return;
      const run = { relay: `debugger-${deps.worker}-${tabId}-${attachments++}`, sent: 0, dropped: 0, streams: 0, queue: [], scheduled: false, sessions: new Map(), detached: false } as Omit<TabRun, 'page'> as TabRun;
      run.page = network(tabId, run, undefined);
      runs.set(tabId, run);
      try {
        // A worker that restarted left the last one's session attached: take it over.
        await deps.api.attach({ tabId }, '1.3').catch(async (error: unknown) => {
          if (!String(error).includes('already attached')) throw error;
          await deps.api.detach({ tabId }).catch(() => undefined);
          await deps.api.attach({ tabId }, '1.3');
        });
        await deps.api.sendCommand({ tabId }, 'Network.enable', {});
        await deps.api.sendCommand({ tabId }, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
        deps.status(tabId, true, run.sessions.size);
      } catch (error) {
        runs.delete(tabId);
        deps.status(tabId, false, 0, error instanceof Error ? error.message : String(error));
      }
    },
    async stop(tabId: number): Promise<void> {
      const run = runs.get(tabId);
      if (!run) return;
      ended(tabId, run);
      await deps.api.detach({ tabId }).catch(() => undefined);
    },
    attached: (tabId: number) => runs.has(tabId),
  };
}

export type TabDebugger = ReturnType<typeof createTabDebugger>;
