import { createPortClient, type PortLike } from '../shared/port-client';
import {
  isBackgroundDeliver,
  isBackgroundFidelity,
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
  /** Standalone viewer only: the tabs that have captures, and the items of tabs the background let go (its tab cap). */
  tabs(list: readonly { tabId: number; items: number }[], dropped: number): void;
  /** Whether full-fidelity capture is attached to the tab (and to how many Workers), or why not. */
  fidelity?(status: FidelityStatus): void;
}

export interface FidelityStatus {
  attached: boolean;
  workers: number;
  error?: string;
}

/** The "Capture workers and early requests" switch, where the browser has it. */
export interface FidelityControl {
  /** What the browser shows while it is on, said before asking for the permission. */
  warning: string;
  /** The switch's one line, where the browser's mechanism differs from the debugger's. */
  explain?: string;
  /** Asks for the optional permission; call it in the user's click. Resolves whether it is granted. */
  request(): Promise<boolean>;
  /** On or off for the watched tab; said again after every reconnect. */
  set(on: boolean): void;
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
  /** Absent where there is no full-fidelity capture (the shell, tests, the standalone viewer). */
  fidelity?: FidelityControl;
}

/** Control messages the panel may queue while the worker restarts. */
export const MAX_PANEL_QUEUE = 16;

export interface ExtensionAdapterDeps {
  connect: () => PortLike;
  /** The inspected tab, or null in the standalone viewer. */
  tabId: number | null;
  reload?: () => void;
  /** The browser's side of the switch: its warning and its permission request. */
  fidelity?: Omit<FidelityControl, 'set'>;
}

export function createExtensionAdapter(deps: ExtensionAdapterDeps): PanelAdapter {
  let tabId = deps.tabId;
  let sink: PanelSink | null = null;
  let fidelity = false;
  const onMessage = (message: unknown) => {
    if (!sink) return;
    if (isBackgroundDeliver(message) && message.tabId === tabId) sink.deliver(message.deliveries, message.counters);
    else if (isBackgroundRelayStatus(message) && message.tabId === tabId) sink.relayStatus(message.relays);
    else if (isBackgroundTabs(message)) sink.tabs(message.tabs, Number.isSafeInteger(message.dropped) && message.dropped! > 0 ? message.dropped! : 0);
    else if (isBackgroundFidelity(message) && message.tabId === tabId) sink.fidelity?.({ attached: message.attached, workers: message.workers, ...(message.error ? { error: message.error } : {}) });
  };
  // Eager: the panel wants the worker alive while it is open, and reconnects the moment it dies.
  const port = createPortClient({
    connect: () => deps.connect(),
    hello: () => make('panel-hello', { tabId, fidelity }),
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
      // The switch's state goes with the new tab: the viewer picks its tab after the switch is read.
      port.send(make('panel-hello', { tabId: next, fidelity }));
    },
    clear() {
      if (tabId !== null) port.send(make('panel-clear', { tabId }));
    },
    reload: () => deps.reload?.(),
    canReload: deps.reload !== undefined,
    ...(deps.fidelity
      ? {
          fidelity: {
            ...deps.fidelity,
            set(on: boolean) {
              if (on === fidelity) return;
              fidelity = on;
              if (tabId !== null) port.send(make('panel-fidelity', { tabId, on }));
            },
          },
        }
      : {}),
  };
}

