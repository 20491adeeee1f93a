import {
  PORT,
  isBackgroundDeliver,
  isDevtoolsExchange,
  isDevtoolsHello,
  isDevtoolsNavigated,
  isPanelClear,
  isPanelHello,
  isRelayBatch,
  isRelayHello,
  isRelayStatus,
  make,
  type BackgroundCounters,
  type Delivery,
  type Message,
} from '../shared/messages';
import type { PortLike } from './port-client';
import { createTabBuffer, type TabBuffer } from './tab-buffer';

/** Tabs with a history at once; the least recently active one without a panel goes first. */
export const MAX_TABS = 32;

/** A port as the background sees it: with its name and sender. */
export interface RouterPort extends PortLike {
  name: string;
  sender?: { tab?: { id?: number } };
}

interface TabState {
  buffer: TabBuffer;
  panels: Set<RouterPort>;
  /** A relay of the tab announced captures (they may still wait in the page for a panel). */
  captured: boolean;
}

export interface RouterDeps {
  /** Changes each time the worker starts; peers learn from it that the worker restarted. */
  worker: string;
  /** Sends `message` to every frame of the tab (the relays listen). */
  broadcast(tabId: number, message: Message): void;
}

/**
 * The background's router: keeps a bounded history per tab and hands each delivery to the
 * panels attached to that tab. It holds no state worth saving: when the worker dies, peers
 * reconnect and the panel counts what went missing from the relays' sequence numbers.
 */
export function createRouter(deps: RouterDeps) {
  const tabs = new Map<number, TabState>();
  /** Standalone viewers that have not picked a tab yet: told whenever a tab gets its first capture. */
  const choosers = new Set<RouterPort>();
  const tabList = () => [...tabs].filter(([, t]) => t.captured).map(([id, t]) => ({ tabId: id, items: t.buffer.items() }));
  const counters: BackgroundCounters = { evictedItems: 0, evictedTabs: 0, undelivered: 0 };

  function tab(tabId: number): TabState {
    let state = tabs.get(tabId);
    if (state) {
      tabs.delete(tabId); // re-insert: Map order is our recency order
      tabs.set(tabId, state);
      return state;
    }
    if (tabs.size >= MAX_TABS) {
      for (const [id, old] of tabs) {
        if (old.panels.size > 0) continue;
        counters.evictedTabs += old.buffer.items();
        tabs.delete(id);
        break;
      }
    }
    state = { buffer: createTabBuffer(), panels: new Set(), captured: false };
    tabs.set(tabId, state);
    return state;
  }

  const snapshot = (t: TabState): BackgroundCounters => ({ ...counters, evictedItems: counters.evictedItems + t.buffer.evicted() });

  function send(port: RouterPort, message: Message): void {
    try {
      port.postMessage(message);
    } catch {
      counters.undelivered += isBackgroundDeliver(message) ? message.deliveries.length : 0;
    }
  }

  function deliver(tabId: number, delivery: Delivery): void {
    const t = tab(tabId);
    markCaptured(t);
    t.buffer.push(delivery);
    for (const panel of t.panels) send(panel, make('bg-deliver', { tabId, deliveries: [delivery], counters: snapshot(t) }));
  }

  function markCaptured(t: TabState): void {
    if (t.captured) return;
    t.captured = true;
    for (const chooser of choosers) send(chooser, make('bg-tabs', { tabs: tabList() }));
  }

  function onMessage(port: RouterPort, message: unknown): void {
    const senderTab = port.sender?.tab?.id;
    if (port.name === PORT.relay && senderTab !== undefined) {
      if (isRelayHello(message)) {
        // A relay connects only once its page has captured something (or was sent forgeries).
        markCaptured(tab(senderTab));
        send(port, make('bg-welcome', { worker: deps.worker }));
        send(port, make('bg-attach', { attached: (tabs.get(senderTab)?.panels.size ?? 0) > 0 }));
      }
      else if (isRelayBatch(message)) {
        const { relay, seq, items, counters: relayCounters } = message;
        deliver(senderTab, { from: 'relay', relay, seq, items, counters: relayCounters });
      } else if (isRelayStatus(message)) {
        const t = tab(senderTab);
        const status = make('bg-relay-status', { tabId: senderTab, relays: [{ relay: message.relay, counters: message.counters }] });
        for (const panel of t.panels) send(panel, status);
      }
    } else if (port.name === PORT.devtools) {
      if (isDevtoolsHello(message)) send(port, make('bg-welcome', { worker: deps.worker }));
      else if (isDevtoolsExchange(message)) deliver(message.tabId, { from: 'network', exchange: message.exchange, dropped: message.dropped });
      // Kept in the tab's history like a capture, so a panel opened later still sees where the page changed.
      else if (isDevtoolsNavigated(message)) deliver(message.tabId, { from: 'navigation', url: message.url, time: message.time });
    } else if (port.name === PORT.panel) {
      if (isPanelHello(message)) attachPanel(port, message.tabId);
      else if (isPanelClear(message)) tabs.get(message.tabId)?.buffer.clear();
    }
  }

  function attachPanel(port: RouterPort, tabId: number | null): void {
    send(port, make('bg-welcome', { worker: deps.worker }));
    if (tabId === null) {
      choosers.add(port);
      return send(port, make('bg-tabs', { tabs: tabList() }));
    }
    choosers.delete(port);
    const t = tab(tabId);
    detach(port);
    t.panels.add(port);
    send(port, make('bg-deliver', { tabId, deliveries: [...t.buffer.all()], counters: snapshot(t) }));
    // The relays now send what they held back, then forward live.
    deps.broadcast(tabId, make('bg-attach', { attached: true }));
  }

  /** Removes a panel; the tab's relays go quiet again when it was the last one. */
  function detach(port: RouterPort): void {
    for (const [tabId, t] of tabs) {
      if (t.panels.delete(port) && t.panels.size === 0) deps.broadcast(tabId, make('bg-attach', { attached: false }));
    }
  }

  return {
    connect(port: RouterPort): void {
      port.onMessage.addListener((message) => onMessage(port, message));
      port.onDisconnect.addListener(() => {
        detach(port);
        choosers.delete(port);
      });
    },
    removeTab(tabId: number): void {
      tabs.delete(tabId);
    },
    counters: () => ({ ...counters }),
  };
}
