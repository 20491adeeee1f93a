import type { CapturedItem, RelayCounters } from '../../shared/messages';
import { createCdpNetwork, debuggerCounters } from './cdp-network';

/** A debuggee: the inspected tab, a Worker attached by its target id, or a flat CDP session under either. */
export interface Debuggee {
  tabId?: number;
  targetId?: string;
  sessionId?: string;
}

/** What `chrome.debugger.getTargets` says of a target (the fields used). */
export interface DebugTarget {
  id: string;
  type: string;
  url: string;
  tabId?: number;
}

/** The slice of `chrome.debugger` (Chrome 125+, for flat sessions) the capture needs; tests pass a fake. */
export interface DebuggerApi {
  attach(target: Debuggee, version: string): Promise<void>;
  detach(target: Debuggee): Promise<void>;
  sendCommand(target: Debuggee, method: string, params?: object): Promise<unknown>;
  getTargets(): Promise<DebugTarget[]>;
  onEvent: { addListener(fn: (source: Debuggee, method: string, params?: object) => void): void };
  onDetach: { addListener(fn: (source: Debuggee, reason: string) => void): void };
}

/** Worker sessions of one tab followed at once; past it new Workers are not (and are counted). */
export const MAX_WORKER_SESSIONS = 64;
/**
 * How often the browser's targets are listed for the tab's shared workers: a tab's auto-attach
 * does not reach them, and `chrome.debugger` reports no new target (Target.setDiscoverTargets is
 * "Not allowed"), so a shared worker started meanwhile is found by the next listing.
 */
export const SHARED_WORKER_SCAN_MS = 500;

export interface TabDebuggerDeps {
  api: DebuggerApi;
  /** Numbered like a relay's: `relay` is this debugger's id, items count from `seq`. */
  deliver(tabId: number, relay: string, seq: number, items: CapturedItem[], counters: RelayCounters): void;
  /** The debugger is (or no longer is) attached to the tab; `error` when attaching failed. */
  status(tabId: number, attached: boolean, workers: number, error?: string): void;
  worker: string;
}

const WORKER_TYPES = new Set(['worker', 'shared_worker', 'service_worker']);
const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
};

/**
 * Full-fidelity capture of inspected tabs, through `chrome.debugger`: attached only while a
 * panel of the tab asks for it, detached when it stops asking or goes away. Every Worker the
 * tab starts is auto-attached (flat sessions; this reaches dedicated workers and the service
 * workers whose scope holds the page), the shared workers of the tab's origin are attached by
 * target id, and their MCP requests are followed live with `Network.streamResourceContent`,
 * ended by `loadingFinished` or `loadingFailed`. The page's own MCP requests are followed too,
 * for those the tap missed; the router merges the copy of a request the tap also made
 * (twins.ts), so nothing is shown twice.
 */
export function createTabDebugger(deps: TabDebuggerDeps) {
  type Network = ReturnType<typeof createCdpNetwork>;
  interface TabRun {
    relay: string;
    sent: number;
    dropped: number;
    streams: number;
    queue: CapturedItem[];
    scheduled: boolean;
    /** Flat sessions (auto-attached Workers), by session id. */
    sessions: Map<string, Network>;
    /** Workers attached by target id (the tab's shared workers). */
    targets: Map<string, Network>;
    /** Targets already followed through a session, or refused by the cap: never attached by id. */
    seen: Set<string>;
    /** The page target's own requests: those the tap missed (made before it ran, or from a frame it is not in). */
    page: Network;
    scan: ReturnType<typeof setInterval> | undefined;
    /** The shared-worker scan under way, if any (it may be attaching a worker). */
    scanning: Promise<void> | undefined;
    detached: boolean;
    /** Settles once every target of the run is detached and the switch reported off. */
    ending: Promise<void> | undefined;
  }
  const runs = new Map<number, TabRun>();
  /** The tab each target attached by id was attached for. */
  const tabOfTarget = new Map<string, number>();
  let attachments = 0;
  const workers = (run: TabRun) => run.sessions.size + run.targets.size;

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

  function network(tabId: number, run: TabRun, target: Debuggee, page: boolean): Network {
    return createCdpNetwork({
      openAtResponse: page,
      nextStream: () => run.streams++,
      emit: emitter(tabId, run),
      drop: () => void (run.dropped += 1),
      enableBody: (requestId) =>
        deps.api
          .sendCommand(target, 'Network.streamResourceContent', { requestId })
          .then((r) => ((r as { bufferedData?: string }).bufferedData ?? null))
          .catch(() => null),
      wholeBody: (requestId) =>
        deps.api
          .sendCommand(target, 'Network.getResponseBody', { requestId })
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

  async function onAttached(tabId: number, run: TabRun, root: Debuggee, params: { sessionId: string; targetInfo: { type: string; targetId?: string } }): Promise<void> {
    const child = { ...root, sessionId: params.sessionId };
    const id = params.targetInfo.targetId;
    // A worker already attached by its target id is followed there, not twice.
    if (WORKER_TYPES.has(params.targetInfo.type) && !(id !== undefined && run.targets.has(id))) {
      if (id !== undefined) run.seen.add(id);
      if (workers(run) >= MAX_WORKER_SESSIONS) run.dropped += 1;
      else {
        run.sessions.set(params.sessionId, network(tabId, run, child, false));
        await deps.api.sendCommand(child, 'Network.enable', {}).catch(() => undefined);
        // A Worker's own Workers too.
        await deps.api.sendCommand(child, 'Target.setAutoAttach', AUTO_ATTACH).catch(() => undefined);
        deps.status(tabId, true, workers(run));
      }
    }
    await deps.api.sendCommand(child, 'Runtime.runIfWaitingForDebugger').catch(() => undefined);
  }

  /** Attaches the shared workers of the tab's origin not followed yet. */
  async function scanTargets(tabId: number, run: TabRun): Promise<void> {
    const targets = await deps.api.getTargets().catch(() => [] as DebugTarget[]);
    const page = targets.find((t) => t.tabId === tabId && t.type === 'page');
    const origin = page ? originOf(page.url) : 'null';
    if (origin === 'null') return;
    for (const t of targets) {
      if (run.detached) return;
      if (t.type !== 'worker' || t.tabId !== undefined || originOf(t.url) !== origin) continue;
      if (run.seen.has(t.id) || run.targets.has(t.id) || tabOfTarget.has(t.id)) continue;
      if (workers(run) >= MAX_WORKER_SESSIONS) {
        run.seen.add(t.id);
        run.dropped += 1;
        continue;
      }
      const target = { targetId: t.id };
      tabOfTarget.set(t.id, tabId);
      run.targets.set(t.id, network(tabId, run, target, false));
      try {
        await deps.api.attach(target, '1.3');
        await deps.api.sendCommand(target, 'Network.enable', {});
        await deps.api.sendCommand(target, 'Target.setAutoAttach', AUTO_ATTACH).catch(() => undefined);
        if (run.detached) await deps.api.detach(target).catch(() => undefined);
        else deps.status(tabId, true, workers(run));
      } catch {
        // Another debugger holds it (e.g. this extension, for another tab of the origin), or it ended.
        run.targets.delete(t.id);
        tabOfTarget.delete(t.id);
        run.seen.add(t.id);
      }
    }
  }

  /**
   * Ends a run: its open streams end `unknown`, and every target it attached is detached (the tab
   * too, when `tab`). The switch is reported off only once nothing is attached any more, so a
   * panel that reads "off" can rely on it; a scan still attaching a worker detaches it itself.
   */
  function ended(tabId: number, run: TabRun, tab: boolean): Promise<void> {
    if (run.ending) return run.ending;
    run.detached = true;
    clearInterval(run.scan);
    for (const followed of [run.page, ...run.sessions.values(), ...run.targets.values()]) followed.detach(Date.now());
    const detaching = [...run.targets.keys()].map((targetId) => {
      tabOfTarget.delete(targetId);
      return deps.api.detach({ targetId }).catch(() => undefined);
    });
    if (tab) detaching.push(deps.api.detach({ tabId }).catch(() => undefined));
    flush(tabId, run);
    runs.delete(tabId);
    run.ending = Promise.all([...detaching, run.scanning]).then(() => {
      if (!runs.has(tabId)) deps.status(tabId, false, 0); // unless the switch went on again meanwhile
    });
    return run.ending;
  }
  /** One scan at a time: a slow one is not overtaken by the next tick. */
  const scan = (tabId: number, run: TabRun): Promise<void> => (run.scanning ??= scanTargets(tabId, run).finally(() => (run.scanning = undefined)));

  /** The tab a debuggee belongs to, and the root its flat sessions hang from. */
  const whose = (source: Debuggee): { tabId: number; root: Debuggee } | undefined => {
    if (source.tabId !== undefined) return { tabId: source.tabId, root: { tabId: source.tabId } };
    const tabId = source.targetId === undefined ? undefined : tabOfTarget.get(source.targetId);
    return tabId === undefined ? undefined : { tabId, root: { targetId: source.targetId! } };
  };

  deps.api.onEvent.addListener((source, method, params) => {
    const owner = whose(source);
    const run = owner && runs.get(owner.tabId);
    if (!owner || !run || !params) return;
    if (method === 'Target.attachedToTarget') return void onAttached(owner.tabId, run, owner.root, params as { sessionId: string; targetInfo: { type: string } });
    if (method === 'Target.detachedFromTarget') {
      const id = (params as { sessionId?: string }).sessionId;
      const followed = id === undefined ? undefined : run.sessions.get(id);
      if (followed) followed.detach(Date.now()), run.sessions.delete(id!);
      return;
    }
    if (!method.startsWith('Network.')) return;
    const followed = source.sessionId !== undefined ? run.sessions.get(source.sessionId) : source.targetId !== undefined ? run.targets.get(source.targetId) : run.page;
    followed?.event(method, params as Record<string, unknown>);
  });
  // The user closed Chrome's "is debugging this browser" bar, the tab went away, or a shared worker ended.
  deps.api.onDetach.addListener((source) => {
    if (source.targetId !== undefined) {
      const tabId = tabOfTarget.get(source.targetId);
      const run = tabId === undefined ? undefined : runs.get(tabId);
      tabOfTarget.delete(source.targetId);
      run?.targets.get(source.targetId)?.detach(Date.now());
      run?.targets.delete(source.targetId);
      return;
    }
    const run = source.tabId === undefined ? undefined : runs.get(source.tabId);
    if (run) void ended(source.tabId!, run, false);
  });

  return {
    async start(tabId: number): Promise<void> {
      if (runs.has(tabId)) return;
      const run = { relay: `debugger-${deps.worker}-${tabId}-${attachments++}`, sent: 0, dropped: 0, streams: 0, queue: [], scheduled: false, sessions: new Map(), targets: new Map(), seen: new Set(), scan: undefined, scanning: undefined, detached: false, ending: undefined } as Omit<TabRun, 'page'> as TabRun;
      run.page = network(tabId, run, { tabId }, true);
      runs.set(tabId, run);
      try {
        // A worker that restarted left the last one's session attached: take it over.
        await deps.api.attach({ tabId }, '1.3').catch(async (error: unknown) => {
          if (!String(error).includes('already attached')) throw error;
          await deps.api.detach({ tabId }).catch(() => undefined);
          await deps.api.attach({ tabId }, '1.3');
        });
        await deps.api.sendCommand({ tabId }, 'Network.enable', {});
        await deps.api.sendCommand({ tabId }, 'Target.setAutoAttach', AUTO_ATTACH);
        if (run.detached) return;
        deps.status(tabId, true, workers(run));
        await scan(tabId, run);
        if (!run.detached) run.scan = setInterval(() => void scan(tabId, run), SHARED_WORKER_SCAN_MS);
      } catch (error) {
        runs.delete(tabId);
        deps.status(tabId, false, 0, error instanceof Error ? error.message : String(error));
      }
    },
    async stop(tabId: number): Promise<void> {
      const run = runs.get(tabId);
      if (!run) return;
      await ended(tabId, run, true);
    },
    attached: (tabId: number) => runs.has(tabId),
  };
}

export type TabDebugger = ReturnType<typeof createTabDebugger>;
