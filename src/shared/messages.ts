/**
 * The one message protocol of the extension. Every message between the page tap (MAIN world), the
 * relay (isolated content script), the devtools page, the background worker and the panel is a
 * member of {@link Message}. No message type string appears anywhere else: build messages with
 * the `make*` helpers and recognise them with the `is*` guards.
 *
 * Flow: tap --private MessagePort--> relay --port "relay"--> background --port "panel"--> panel.
 * The devtools page adds what the tap could not see over port "devtools". The tap's port is the
 * only thing it ever posts on the page's window (see {@link TapPort}); the page cannot write to it.
 */
import type { RequestInfo, ResponseInfo, StreamEnd } from '../core/model';

/** Bumped on any incompatible change; peers with another version ignore each other. */
export const PROTOCOL_VERSION = 1;

/** The `source` brand of each sender. A message without one of these is not ours. */
export const SOURCE = {
  tap: 'mcp-stream-lens/tap',
  relay: 'mcp-stream-lens/relay',
  devtools: 'mcp-stream-lens/devtools',
  panel: 'mcp-stream-lens/panel',
  background: 'mcp-stream-lens/background',
} as const;

/** Names of the long-lived ports opened towards the background. */
export const PORT = { relay: 'mcp-stream-lens/relay', devtools: 'mcp-stream-lens/devtools', panel: 'mcp-stream-lens/panel' } as const;

/** Which page API carried a captured exchange. */
export type TapApi = 'fetch' | 'eventsource' | 'xhr';

/** What the tap and the capture say about an exchange, besides its body. */
type LifeItem =
  | { kind: 'open'; stream: number; api: TapApi; request: RequestInfo }
  | { kind: 'response'; stream: number; response: ResponseInfo }
  | { kind: 'end'; stream: number; end: StreamEnd };

/**
 * One observation of the page tap. `stream` numbers the exchanges of one page (one tap instance);
 * the relay scopes it with its own id. Times are ms since the epoch.
 *
 * A chunk carries the raw bytes as read (or text, for the APIs that only give text): decoding
 * waits until a panel wants it, so the page pays no per-byte work while nobody watches.
 */
export type TapItem = LifeItem | { kind: 'chunk'; stream: number; time: number; data: Uint8Array | string };

/**
 * An observation as the relay forwards it: chunks are decoded (UTF-8, in stream order) because
 * extension messaging is JSON. `bytes` is the chunk's length as read.
 */
export type CapturedItem = LifeItem | { kind: 'chunk'; stream: number; time: number; bytes: number; text: string };

/**
 * A page API the tap no longer sees because the page replaced (or froze over) the tap's wrapper;
 * `time` is when the tap noticed, within LOSS_CHECK_MS of the replacement.
 */
export interface TapLoss {
  api: TapApi;
  time: number;
}

/** Cumulative counters of one relay (one frame). Cumulative, so a lost message loses nothing. */
export interface RelayCounters {
  /** Items the relay numbered and handed on; `seq` runs from 0 to `sent - 1`. */
  sent: number;
  /** Page messages that carried our brand but failed validation (forged, malformed, oversized). */
  rejected: number;
  /** Items the tap itself gave up on (its caps), as the tap reported them. */
  tapDropped: number;
  /** Items the tap's history evicted while no panel was attached, as the tap reported them. */
  evicted?: number;
  /** APIs the tap lost to the page, the first report of each (at most one per API). */
  tapLost?: TapLoss[];
}

/** An exchange reconstructed from `devtools.network.onRequestFinished` (a HAR entry). */
export interface NetworkExchange {
  /** Unique per devtools page instance. */
  id: string;
  request: RequestInfo;
  response: ResponseInfo;
  /** The whole body, when the browser kept one (Chrome keeps none for a reset stream). */
  body: string | null;
  end: StreamEnd;
}

/**
 * What made a copy of a request in the background, where page taps make the others: Chrome's
 * tab debugger (CDP), or Firefox's network filter (`webRequest.filterResponseData`).
 */
export const BACKGROUND_PRODUCERS = ['debugger', 'network-filter'] as const;
export type BackgroundProducer = (typeof BACKGROUND_PRODUCERS)[number];

/** True for a producer in the list; anything else from a recording or feed is refused. */
export function isBackgroundProducer(value: unknown): value is BackgroundProducer {
  return typeof value === 'string' && (BACKGROUND_PRODUCERS as readonly string[]).includes(value);
}

/** What the background buffers per tab and hands to the panel, in arrival order. */
export type Delivery =
  /**
   * `by`: the copy was captured by the background (its producer), not by a page tap.
   * `merged`: streams of this batch that the other producer's copy of the same request stands
   * for (the tap's and the debugger's copies are paired in the background): not to be shown.
   */
  | { from: 'relay'; relay: string; seq: number; items: CapturedItem[]; counters: RelayCounters; by?: BackgroundProducer; merged?: number[] }
  /**
   * `dropped`: cumulative exchanges the devtools page's queue had to drop (a worker restart).
   * `twin`: the `relay:stream` key of the tap's copy of the same request, matched by the
   * background; the exchange then carries no body and adds only its end (an error) to that copy.
   * A report delivered without it and delivered again with it was the twin of a later tap open.
   */
  | { from: 'network'; exchange: NetworkExchange; dropped?: number; twin?: string }
  /** The inspected page navigated (a new document): a marker between the sessions before and after. */
  | { from: 'navigation'; url: string; time: number };

/** Drops counted by the background's own caps. */
export interface BackgroundCounters {
  /** Items evicted from a tab's history buffer (only a loss for a panel attached later). */
  evictedItems: number;
  /** Messages that arrived for a tab while more than MAX_TABS tabs were tracked. */
  evictedTabs: number;
  /** Deliveries not sent because the panel's port was gone. */
  undelivered: number;
}

interface Envelope<S extends string, T extends string> {
  source: S;
  v: typeof PROTOCOL_VERSION;
  type: T;
}

/**
 * tap -> relay, on the page's window, once at document_start: carries (in `event.ports`) the
 * private MessagePort over which every later tap <-> relay message travels. Both content scripts
 * run before any page script, so the first hand-over is the tap's; anything tap-branded posted on
 * the window afterwards is the page's forgery, and is counted. Only the tap holds the end that
 * writes to the relay: a page script that saw this message could at most read its own captures
 * or tell its own tap that a panel is attached.
 */
export type TapPort = Envelope<typeof SOURCE.tap, 'tap-port'>;
/** tap -> relay: a batch of observations (only while attached). */
export interface TapBatch extends Envelope<typeof SOURCE.tap, 'tap-batch'> {
  items: TapItem[];
  /** Cumulative count of items the tap dropped (its own caps). */
  dropped: number;
  /** Cumulative count of items its history evicted while no panel was attached. */
  evicted: number;
}
/**
 * tap -> relay: "I hold captures". Posted once, on the first MCP exchange, while no panel is
 * attached; it carries no data. The relay then asks the background whether a panel is attached.
 */
export type TapHello = Envelope<typeof SOURCE.tap, 'tap-hello'>;
/**
 * tap -> relay: the page replaced one of the tap's wrappers, so later traffic through that API
 * may be missing. Sent only while a panel is attached (held until then). A page cannot write to
 * the tap's port, and a page that wanted to hide the loss could as well never have been tapped;
 * either way the network panel's exchanges still show what the tap missed.
 */
export interface TapLost extends Envelope<typeof SOURCE.tap, 'tap-lost'>, TapLoss {}
/**
 * relay -> tap, over the tap's port: a panel is (or is no longer) attached. While not attached
 * the tap keeps its captures in its own small bounded history and posts nothing; when attached
 * it posts that history, then everything live.
 */
export interface RelayAttach extends Envelope<typeof SOURCE.relay, 'relay-attach'> {
  attached: boolean;
}

/** relay -> background: first message on each (re)connected port. */
export interface RelayHello extends Envelope<typeof SOURCE.relay, 'relay-hello'> {
  relay: string;
  counters: RelayCounters;
}
/** relay -> background: validated items, numbered from `seq`. */
export interface RelayBatch extends Envelope<typeof SOURCE.relay, 'relay-batch'> {
  relay: string;
  seq: number;
  items: CapturedItem[];
  counters: RelayCounters;
}
/** relay -> background: its counters (on its first capture, on attach, after forgeries). */
export interface RelayStatus extends Envelope<typeof SOURCE.relay, 'relay-status'> {
  relay: string;
  counters: RelayCounters;
}

/** devtools page -> background: first message on each (re)connected port. */
export interface DevtoolsHello extends Envelope<typeof SOURCE.devtools, 'devtools-hello'> {
  tabId: number;
}
/** devtools page -> background: an MCP exchange seen by the network panel. */
export interface DevtoolsExchange extends Envelope<typeof SOURCE.devtools, 'devtools-exchange'> {
  tabId: number;
  exchange: NetworkExchange;
  /** Cumulative count of exchanges this devtools page dropped (its queue cap). */
  dropped: number;
}

/** devtools page -> background: the inspected tab navigated to `url` at `time` (ms since the epoch). */
export interface DevtoolsNavigated extends Envelope<typeof SOURCE.devtools, 'devtools-navigated'> {
  tabId: number;
  url: string;
  time: number;
}

/** panel -> background: attach to a tab (`null`: list the tabs that have captures). */
export interface PanelHello extends Envelope<typeof SOURCE.panel, 'panel-hello'> {
  tabId: number | null;
  /** The panel wants full-fidelity capture (see PanelFidelity); said again on every reconnect. */
  fidelity?: boolean;
}
/**
 * panel -> background: turn full-fidelity capture of the tab's Workers on or off ("Capture
 * workers and early requests"). It holds only while a panel that asked for it is attached.
 */
export interface PanelFidelity extends Envelope<typeof SOURCE.panel, 'panel-fidelity'> {
  tabId: number;
  on: boolean;
}
/** panel -> background: forget the tab's history (before "Reload and capture from start"). */
export interface PanelClear extends Envelope<typeof SOURCE.panel, 'panel-clear'> {
  tabId: number;
}

/** background -> any port: the handshake is complete; `worker` changes when the worker restarts. */
export interface BackgroundWelcome extends Envelope<typeof SOURCE.background, 'bg-welcome'> {
  worker: string;
}
/** background -> panel: buffered or live deliveries for the attached tab. */
export interface BackgroundDeliver extends Envelope<typeof SOURCE.background, 'bg-deliver'> {
  tabId: number;
  deliveries: Delivery[];
  counters: BackgroundCounters;
}
/** background -> panel: latest counters of each relay of the tab (answers to a poll). */
export interface BackgroundRelayStatus extends Envelope<typeof SOURCE.background, 'bg-relay-status'> {
  tabId: number;
  relays: { relay: string; counters: RelayCounters }[];
}
/** background -> panel: whether the debugger is attached to the tab, to how many Workers, and why not. */
export interface BackgroundFidelity extends Envelope<typeof SOURCE.background, 'bg-fidelity'> {
  tabId: number;
  attached: boolean;
  workers: number;
  error?: string;
}
/** background -> panel (standalone viewer): the tabs that have captures. */
export interface BackgroundTabs extends Envelope<typeof SOURCE.background, 'bg-tabs'> {
  tabs: { tabId: number; items: number }[];
  /** Items of tabs whose history the background let go past its tab cap: the list is not all that was captured. */
  dropped?: number;
}
/**
 * background -> relays of a tab (on the relay's port after its hello, and as a runtime message to
 * every frame when a panel comes or goes). Each relay passes it on to its tap as RelayAttach.
 */
export interface BackgroundAttach extends Envelope<typeof SOURCE.background, 'bg-attach'> {
  attached: boolean;
}

/** Every message of the extension. */
export type Message =
  | TapPort
  | TapBatch
  | TapHello
  | TapLost
  | RelayAttach
  | RelayHello
  | RelayBatch
  | RelayStatus
  | DevtoolsHello
  | DevtoolsExchange
  | DevtoolsNavigated
  | PanelHello
  | PanelClear
  | PanelFidelity
  | BackgroundWelcome
  | BackgroundDeliver
  | BackgroundRelayStatus
  | BackgroundFidelity
  | BackgroundTabs
  | BackgroundAttach;

type Body<M extends Message> = Omit<M, 'source' | 'v' | 'type'>;
type ByType<T extends Message['type']> = Extract<Message, { type: T }>;

const SOURCE_OF: { [T in Message['type']]: ByType<T>['source'] } = {
  'tap-port': SOURCE.tap,
  'tap-batch': SOURCE.tap,
  'tap-hello': SOURCE.tap,
  'tap-lost': SOURCE.tap,
  'relay-attach': SOURCE.relay,
  'relay-hello': SOURCE.relay,
  'relay-batch': SOURCE.relay,
  'relay-status': SOURCE.relay,
  'devtools-hello': SOURCE.devtools,
  'devtools-exchange': SOURCE.devtools,
  'devtools-navigated': SOURCE.devtools,
  'panel-hello': SOURCE.panel,
  'panel-clear': SOURCE.panel,
  'panel-fidelity': SOURCE.panel,
  'bg-welcome': SOURCE.background,
  'bg-deliver': SOURCE.background,
  'bg-relay-status': SOURCE.background,
  'bg-fidelity': SOURCE.background,
  'bg-tabs': SOURCE.background,
  'bg-attach': SOURCE.background,
};

/** Builds a message of `type`, adding its source brand and the protocol version. */
export function make<T extends Message['type']>(type: T, body: Body<ByType<T>>): ByType<T> {
  return { ...body, source: SOURCE_OF[type], v: PROTOCOL_VERSION, type } as unknown as ByType<T>;
}

/** True for a message of ours (any type) from a peer speaking this protocol version. */
export function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const { type, source, v } = value as Record<string, unknown>;
  return v === PROTOCOL_VERSION && typeof type === 'string' && Object.hasOwn(SOURCE_OF, type) && SOURCE_OF[type as Message['type']] === source;
}

function guard<T extends Message['type']>(type: T): (value: unknown) => value is ByType<T> {
  return (value: unknown): value is ByType<T> => isMessage(value) && value.type === type;
}

// Guards. For messages from our own extension contexts the runtime guarantees their origin; a
// tap batch goes through `validateTapBatch` and a tap-lost through `validateTapLoss`
// (tap-validation.ts); tap-port, tap-hello and relay-attach carry nothing beyond the envelope.
export const isTapPort = guard('tap-port');
/** Envelope only: what the tap posts is checked item by item with `validateTapBatch`. */
export const isTapBatch = guard('tap-batch');
export const isTapHello = guard('tap-hello');
export const isTapLost = guard('tap-lost');
export const isRelayAttach = guard('relay-attach');
export const isRelayHello = guard('relay-hello');
export const isRelayBatch = guard('relay-batch');
export const isRelayStatus = guard('relay-status');
export const isDevtoolsHello = guard('devtools-hello');
export const isDevtoolsExchange = guard('devtools-exchange');
export const isDevtoolsNavigated = guard('devtools-navigated');
export const isPanelHello = guard('panel-hello');
export const isPanelClear = guard('panel-clear');
export const isPanelFidelity = guard('panel-fidelity');
export const isBackgroundWelcome = guard('bg-welcome');
export const isBackgroundDeliver = guard('bg-deliver');
export const isBackgroundRelayStatus = guard('bg-relay-status');
export const isBackgroundFidelity = guard('bg-fidelity');
export const isBackgroundTabs = guard('bg-tabs');
export const isBackgroundAttach = guard('bg-attach');

/**
 * Cheap first look at a page message: does it claim to be from the tap? Anything that does and then
 * fails {@link validateTapBatch} is a forgery or a bug, and is counted.
 */
export function claimsTapSource(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { source?: unknown }).source === SOURCE.tap;
}
