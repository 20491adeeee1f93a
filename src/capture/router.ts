import {
  PORT,
  isBackgroundDeliver,
  isDevtoolsExchange,
  isDevtoolsHello,
  isDevtoolsNavigated,
  isPanelClear,
  isPanelFidelity,
  isPanelHello,
  isRelayBatch,
  isRelayHello,
  isRelayStatus,
  make,
  type BackgroundCounters,
  type BackgroundFidelity,
  type BackgroundProducer,
  type CapturedItem,
  type Delivery,
  type Message,
  type RelayCounters,
} from '../shared/messages';
import type { RequestInfo } from '../core/index';
import type { PortLike } from '../shared/port-client';
import type { SavedTab, SessionHistory, TabMeta } from './session-history';
import { createTabBuffer, type TabBuffer } from './tab-buffer';
import { createTwinIndex } from './twins';

/** Relay ids of the captures made in the background itself (the debugger's, webRequest's). */
const BACKGROUND_RELAY = /^(debugger|webrequest)-/;

/** Tabs with a history at once; the least recently active one without a panel goes first. */
export const MAX_TABS = 32;
/** Messages that arrive while a restarted worker reads its saved history; past it they are counted. */
export const MAX_EARLY_MESSAGES = 4_096;

/** A port as the background sees it: with its name and sender. */
export interface RouterPort extends PortLike {
  name: string;
  sender?: { tab?: { id?: number } };
}

interface TabState {
  buffer: TabBuffer;
  /** Panels of the tab: they receive its deliveries. */
  panels: Set<RouterPort>;
  /** Open DevTools of the tab: with a panel, they keep the tab's taps sending (see attachedOf). */
  devtools: Set<RouterPort>;
  /** Attached panels that asked for full fidelity: the debugger stays attached while there is one. */
  fidelity: Set<RouterPort>;
  /** The last word of the tab's full-fidelity capture, for a panel that joins after it was said. */
  fidelityStatus?: BackgroundFidelity;
  /** A relay of the tab announced captures (they may still wait in the page for a panel). */
  captured: boolean;
  /** The next item number of each relay, so what a relay sends again is kept once. */
  relays: Map<string, number>;
  twins: ReturnType<typeof createTwinIndex>;
}

export interface RouterDeps {
  /** Changes each time the worker starts; peers learn from it that the worker restarted. */
  worker: string;
  /** Sends `message` to every frame of the tab (the relays listen). */
  broadcast(tabId: number, message: Message): void;
  /** Where the tabs' histories outlive the worker; absent: in memory only (tests). */
  history?: SessionHistory;
  /** Full-fidelity capture of a tab's Workers (the debugger); absent where the browser has none here. */
  fidelity?: { start(tabId: number): void; stop(tabId: number): void };
}

/**
 * The taps of a tab send while its DevTools is open, not only while the panel is shown: the tap
 * then sees a request start before the network panel reports its end, so the two copies of a
 * request pair up in that order (twins.ts). Nothing leaves a page whose DevTools is closed.
 */
const attachedOf = (t: TabState) => t.panels.size + t.devtools.size > 0;

/**
 * The background's router: keeps a bounded history per tab and hands each delivery to the
 * panels attached to that tab. The history is written to the session area as it grows, and read
 * back when the worker starts again, so a panel opened after a restart still sees every session
 * the caps kept; a relay's repeats of what was already kept are cut by its item numbers.
 */
export function createRouter(deps: RouterDeps) {
  const tabs = new Map<number, TabState>();
  /** Standalone viewers that have not picked a tab yet: told whenever a tab gets its first capture. */
  const choosers = new Set<RouterPort>();
  const tabList = () => [...tabs].filter(([, t]) => t.captured).map(([id, t]) => ({ tabId: id, items: t.buffer.items() }));
  const counters: BackgroundCounters = { evictedItems: 0, evictedTabs: 0, undelivered: 0 };
  const tabsMessage = () => ({ tabs: tabList(), dropped: counters.evictedTabs });
  /** Until the saved history is read, messages wait here, in order. */
  let early: (() => void)[] | null = deps.history ? [] : null;

  const newTab = (saved?: SavedTab): TabState => {
    const t: TabState = {
      buffer: createTabBuffer(undefined, undefined, saved ? { first: saved.meta.first, deliveries: saved.deliveries, evicted: saved.meta.evicted } : undefined),
      panels: new Set(),
      devtools: new Set(),
      fidelity: new Set(),
      captured: saved?.meta.captured ?? false,
      relays: new Map(Object.entries(saved?.meta.relays ?? {})),
      twins: createTwinIndex(),
    };
    if (saved) t.twins.restore(t.buffer.all(), t.buffer.first());
    return t;
  };

  function tab(tabId: number): TabState {
    let state = tabs.get(tabId);
    if (state) {
      tabs.delete(tabId); // re-insert: Map order is our recency order
      tabs.set(tabId, state);
      return state;
    }
    if (tabs.size >= MAX_TABS) {
      for (const [id, old] of tabs) {
        if (attachedOf(old)) continue;
        counters.evictedTabs += old.buffer.items();
        forget(id, old);
        break;
      }
    }
    state = newTab();
    tabs.set(tabId, state);
    return state;
  }

  function forget(tabId: number, t: TabState): void {
    tabs.delete(tabId);
    deps.history?.forget(tabId, t.buffer.first(), t.buffer.next());
  }

  const metaOf = (t: TabState): TabMeta => ({
    first: t.buffer.first(),
    next: t.buffer.next(),
    evicted: t.buffer.evicted(),
    captured: t.captured,
    relays: Object.fromEntries(t.relays),
  });

  const snapshot = (t: TabState): BackgroundCounters => ({ ...counters, evictedItems: counters.evictedItems + t.buffer.evicted() });

  function send(port: RouterPort, message: Message): void {
    try {
      port.postMessage(message);
    } catch {
      counters.undelivered += isBackgroundDeliver(message) ? message.deliveries.length : 0;
    }
  }

  const toPanels = (tabId: number, t: TabState, deliveries: Delivery[]) => {
    for (const panel of t.panels) send(panel, make('bg-deliver', { tabId, deliveries, counters: snapshot(t) }));
  };

  /** Keeps `delivery` in the tab's history (and its saved copy); returns its position. */
  function keep(tabId: number, t: TabState, delivery: Delivery): number {
    const first = t.buffer.first();
    const at = t.buffer.push(delivery);
    deps.history?.drop(tabId, first, t.buffer.first());
    if (t.buffer.first() <= at) deps.history?.put(tabId, at, delivery);
    deps.history?.meta(tabId, metaOf(t));
    return at;
  }

  function deliver(tabId: number, delivery: Delivery): void {
    const t = tab(tabId);
    markCaptured(t);
    keep(tabId, t, delivery);
    toPanels(tabId, t, [delivery]);
  }

  function relayBatch(tabId: number, delivery: Extract<Delivery, { from: 'relay' }>): void {
    const t = tab(tabId);
    // Items already kept (sent again after a reconnect) are cut off by their numbers.
    const next = t.relays.get(delivery.relay) ?? 0;
    if (delivery.seq + delivery.items.length <= next) return;
    const fresh = delivery.seq < next ? { ...delivery, seq: next, items: delivery.items.slice(next - delivery.seq) } : delivery;
    t.relays.delete(delivery.relay); // re-insert: the newest relays are the ones saved
    t.relays.set(delivery.relay, fresh.seq + fresh.items.length);
    // A network report that came before its tap copy becomes that copy's twin: rewritten in the
    // history, and sent again to the panels before the copy, so they hold the request once.
    // The tap and the debugger may both copy one page request: the second copy is merged into
    // the first (marked, not cut out, so the panel's item numbering has no false gap).
    const rewritten: Delivery[] = [];
    const merged: number[] = [];
    const by = fresh.by ?? 'tap';
    for (const item of fresh.items) {
      if (item.kind !== 'open') continue;
      if (t.twins.copyOpened(item.request, by)) {
        merged.push(item.stream);
        continue;
      }
      const twin = t.twins.tapOpened(`${fresh.relay}:${item.stream}`, item.request, by);
      if (!twin) continue;
      if (twin.at >= t.buffer.first()) deps.history?.put(tabId, twin.at, twin.delivery);
      rewritten.push(twin.delivery);
    }
    const kept = merged.length > 0 ? { ...fresh, merged } : fresh;
    markCaptured(t);
    keep(tabId, t, kept);
    toPanels(tabId, t, [...rewritten, kept]);
  }

  function markCaptured(t: TabState): void {
    if (t.captured) return;
    t.captured = true;
    for (const chooser of choosers) send(chooser, make('bg-tabs', tabsMessage()));
  }

  function onMessage(port: RouterPort, message: unknown): void {
    const senderTab = port.sender?.tab?.id;
    if (port.name === PORT.relay && senderTab !== undefined) {
      if (isRelayHello(message)) {
        // A relay connects only once its page has captured something (or was sent forgeries).
        const t = tab(senderTab);
        markCaptured(t);
        deps.history?.meta(senderTab, metaOf(t));
        send(port, make('bg-welcome', { worker: deps.worker }));
        send(port, make('bg-attach', { attached: attachedOf(t) }));
      } else if (isRelayBatch(message)) {
        const { relay, seq, items, counters: relayCounters } = message;
        relayBatch(senderTab, { from: 'relay', relay, seq, items, counters: relayCounters });
      } else if (isRelayStatus(message)) {
        const t = tab(senderTab);
        const status = make('bg-relay-status', { tabId: senderTab, relays: [{ relay: message.relay, counters: message.counters }] });
        for (const panel of t.panels) send(panel, status);
      }
    } else if (port.name === PORT.devtools) {
      if (isDevtoolsHello(message)) {
        send(port, make('bg-welcome', { worker: deps.worker }));
        const t = tab(message.tabId);
        detach(port);
        const first = !attachedOf(t);
        t.devtools.add(port);
        if (first) deps.broadcast(message.tabId, make('bg-attach', { attached: true }));
      } else if (isDevtoolsExchange(message)) {
        const t = tab(message.tabId);
        markCaptured(t);
        const at = t.buffer.next();
        const delivery = t.twins.network(at, message.exchange, message.dropped);
        keep(message.tabId, t, delivery);
        toPanels(message.tabId, t, [delivery]);
      }
      // Kept in the tab's history like a capture, so a panel opened later still sees where the page changed.
      else if (isDevtoolsNavigated(message)) deliver(message.tabId, { from: 'navigation', url: message.url, time: message.time });
    } else if (port.name === PORT.panel) {
      if (isPanelHello(message)) {
        attachPanel(port, message.tabId);
        if (message.tabId !== null) setFidelity(port, message.tabId, message.fidelity === true);
      } else if (isPanelFidelity(message)) setFidelity(port, message.tabId, message.on);
      else if (isPanelClear(message)) {
        const t = tabs.get(message.tabId);
        if (!t) return;
        deps.history?.forget(message.tabId, t.buffer.first(), t.buffer.next());
        t.buffer.clear();
        t.twins.clear();
        deps.history?.meta(message.tabId, metaOf(t));
      }
    }
  }

  function attachPanel(port: RouterPort, tabId: number | null): void {
    send(port, make('bg-welcome', { worker: deps.worker }));
    if (tabId === null) {
      choosers.add(port);
      return send(port, make('bg-tabs', tabsMessage()));
    }
    choosers.delete(port);
    const t = tab(tabId);
    detach(port);
    t.panels.add(port);
    send(port, make('bg-deliver', { tabId, deliveries: [...t.buffer.all()], counters: snapshot(t) }));
    // The relays now send what they held back, then forward live.
    deps.broadcast(tabId, make('bg-attach', { attached: true }));
  }

  /** A panel of the tab wants full fidelity, or no longer does: the debugger follows the panels' wish. */
  function setFidelity(port: RouterPort, tabId: number, on: boolean): void {
    const t = tabs.get(tabId);
    if (!t || !deps.fidelity) return;
    const before = t.fidelity.size > 0;
    if (on && t.panels.has(port)) t.fidelity.add(port);
    else t.fidelity.delete(port);
    if (!before && t.fidelity.size > 0) deps.fidelity.start(tabId);
    else if (before && t.fidelity.size === 0) deps.fidelity.stop(tabId);
    // Nothing started or stopped, so nothing new will be said: this panel hears what the others heard.
    else if (t.fidelityStatus) send(port, t.fidelityStatus);
  }

  /** Removes a panel or a DevTools page; the tab's relays go quiet again when it was the last one. */
  function detach(port: RouterPort): void {
    for (const [tabId, t] of tabs) {
      const was = attachedOf(t);
      if (t.fidelity.delete(port) && t.fidelity.size === 0) deps.fidelity?.stop(tabId);
      t.panels.delete(port);
      t.devtools.delete(port);
      if (was && !attachedOf(t)) deps.broadcast(tabId, make('bg-attach', { attached: false }));
    }
  }

  /** Runs `step` now, or once the saved history is read. */
  function whenReady(step: () => void): void {
    if (!early) return step();
    if (early.length >= MAX_EARLY_MESSAGES) return void (counters.undelivered += 1);
    early.push(step);
  }

  if (deps.history) {
    void deps.history.load().then((saved) => {
      for (const [tabId, s] of saved) if (!tabs.has(tabId) && tabs.size < MAX_TABS) tabs.set(tabId, newTab(s));
      const waiting = early ?? [];
      early = null;
      for (const step of waiting) step();
    });
  }

  return {
    connect(port: RouterPort): void {
      port.onMessage.addListener((message) => whenReady(() => onMessage(port, message)));
      port.onDisconnect.addListener(() =>
        whenReady(() => {
          detach(port);
          choosers.delete(port);
        }),
      );
    },
    /** Items of a capture in the background itself, made by `by`, numbered like a relay's. */
    captured(by: BackgroundProducer, tabId: number, relay: string, seq: number, items: CapturedItem[], counters: RelayCounters): void {
      whenReady(() => relayBatch(tabId, { from: 'relay', relay, seq, items, counters, by }));
    },
    /**
     * Whether a page tap of the tab has opened `request`: a background capture leaves such a
     * request to the tap, so it is kept once. Background captures' own relays are not taps.
     */
    tapOpened(tabId: number, request: RequestInfo): boolean {
      return tabs.get(tabId)?.twins.opened(request, (key) => !BACKGROUND_RELAY.test(key)) ?? false;
    },
    /** Tells the tab's panels whether the debugger is attached (and to how many Workers). */
    fidelityStatus(tabId: number, attached: boolean, workers: number, error?: string): void {
      const t = tabs.get(tabId);
      if (!t) return;
      const message = make('bg-fidelity', { tabId, attached, workers, ...(error === undefined ? {} : { error }) });
      t.fidelityStatus = message;
      for (const panel of t.panels) send(panel, message);
    },
    removeTab(tabId: number): void {
      whenReady(() => {
        const t = tabs.get(tabId);
        if (t) forget(tabId, t);
      });
    },
    counters: () => ({ ...counters }),
  };
}
