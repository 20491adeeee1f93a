import { createPortClient, type PortLike } from '../shared/port-client';
import {

  isBackgroundDeliver,
  isBackgroundRelayStatus,
  isBackgroundTabs,
  make,
  type BackgroundCounters,
  type Delivery,
  type RelayCounters,
} from '../shared/messages';

/** What the panel is told. The capture store implements it. */
export interface PanelSink {
  deliver(deliveries: readonly Delivery[], counters: BackgroundCounters): void;
  relayStatus(relays: readonly { relay: string; counters: RelayCounters }[]): void;
  /** Standalone viewer only: the tabs that have captures. */
  tabs(list: readonly { tabId: number; items: number }[]): void;
}

/**
 * The only door between the panel and the world. The extension adapter talks to the background;
 * tests and the inline shell pass their own.
 */
export interface PanelAdapter {
  /** Starts feeding `sink`; returns a function that stops it. */
  connect(sink: PanelSink): () => void;
  /** Standalone viewer: start watching another tab. */
  attach(tabId: number): void;
  /** Forget the tab's history, in the background too. */
  clear(): void;
  /** Reload the inspected page (capture is already on from its first request). */
  reload(): void;
  /** Whether `reload` is possible (it is not in the standalone viewer). */
  canReload: boolean;
}

/** Control messages the panel may queue while the worker restarts. */
export const MAX_PANEL_QUEUE = 16;

export interface ExtensionAdapterDeps {
  connect: () => PortLike;
  /** The inspected tab, or null in the standalone viewer. */
  tabId: number | null;
  reload?: () => void;
}

export function createExtensionAdapter(deps: ExtensionAdapterDeps): PanelAdapter {
  let tabId = deps.tabId;
  let sink: PanelSink | null = null;
  const onMessage = (message: unknown) => {
    if (!sink) return;
    if (isBackgroundDeliver(message) && message.tabId === tabId) sink.deliver(message.deliveries, message.counters);
    else if (isBackgroundRelayStatus(message) && message.tabId === tabId) sink.relayStatus(message.relays);
    else if (isBackgroundTabs(message)) sink.tabs(message.tabs);
  };
  // Eager: the panel wants the worker alive while it is open, and reconnects the moment it dies.
  const port = createPortClient({
    connect: () => deps.connect(),
    hello: () => make('panel-hello', { tabId }),
    maxQueue: MAX_PANEL_QUEUE,
    onMessage,
    eager: true,
  });
  return {
    connect(next) {
      sink = next;
      port.start();
      return () => {
        sink = null;
        port.close();
      };
    },
    attach(next) {
      tabId = next;
      port.send(make('panel-hello', { tabId: next }));
    },
    clear() {
      if (tabId !== null) port.send(make('panel-clear', { tabId }));
    },
    reload: () => deps.reload?.(),
    canReload: deps.reload !== undefined,
  };
}

