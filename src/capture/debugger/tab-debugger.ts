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
 * Full-fidelity capture of the Workers of inspected tabs, through `chrome.debugger`: attached
 * only while a panel of the tab asks for it, detached when it stops asking or goes away. The
 * page's own requests are left to the page tap (so nothing is captured twice); every Worker the
 * tab starts is auto-attached (flat sessions), and its MCP requests are followed live with
 * `Network.streamResourceContent`, ended by `loadingFinished` or `loadingFailed`.
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

  function session(tabId: number, run: TabRun, sessionId: string) {
    const network = createCdpNetwork({
      nextStream: () => run.streams++,
      emit: emitter(tabId, run),
      drop: () => void (run.dropped += 1),
      enableBody: (requestId) =>
        deps.api
          .sendCommand({ tabId, sessionId }, 'Network.streamResourceContent', { requestId })
          .then((r) => ((r as { bufferedData?: string }).bufferedData ?? null))
          .catch(() => null),
    });
    run.sessions.set(sessionId, network);
    return network;
  }

  async function onAttached(tabId: number, run: TabRun, params: { sessionId: string; targetInfo: { type: string } }): Promise<void> {
    const child = { tabId, sessionId: params.sessionId };
    if (WORKER_TYPES.has(params.targetInfo.type)) {
      if (run.sessions.size >= MAX_WORKER_SESSIONS) run.dropped += 1;
      else {
        session(tabId, run, params.sessionId);
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
    for (const network of run.sessions.values()) network.detach(Date.now());
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
      const network = id === undefined ? undefined : run.sessions.get(id);
      if (network) network.detach(Date.now()), run.sessions.delete(id!);
      return;
    }
    if (source.sessionId !== undefined && method.startsWith('Network.')) run.sessions.get(source.sessionId)?.event(method, params as Record<string, unknown>);
  });
  // The user closed Chrome's "is debugging this browser" bar, or the tab went away.
  deps.api.onDetach.addListener((source) => {
    const run = source.tabId === undefined ? undefined : runs.get(source.tabId);
    if (run) ended(source.tabId!, run);
  });

  return {
    async start(tabId: number): Promise<void> {
      if (runs.has(tabId)) return;
      const run: TabRun = { relay: `debugger-${deps.worker}-${tabId}-${attachments++}`, sent: 0, dropped: 0, streams: 0, queue: [], scheduled: false, sessions: new Map(), detached: false };
      runs.set(tabId, run);
      try {
        // A worker that restarted left the last one's session attached: take it over.
        await deps.api.attach({ tabId }, '1.3').catch(async (error: unknown) => {
          if (!String(error).includes('already attached')) throw error;
          await deps.api.detach({ tabId }).catch(() => undefined);
          await deps.api.attach({ tabId }, '1.3');
        });
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
