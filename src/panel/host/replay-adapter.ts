import type { Exchange } from '../../core/index';
import type { Delivery } from '../../shared/messages';
import type { PanelAdapter, PanelSink } from '../adapter';

type RelayDelivery = Extract<Delivery, { from: 'relay' }>;
type RelayItem = RelayDelivery['items'][number];

const NO_BACKGROUND_DROPS = { evictedItems: 0, evictedTabs: 0, undelivered: 0 };

/**
 * Exchanges as the background would deliver them from one page relay: open, response, chunks
 * (decoded text, as relays send it), end. In input order, the order `feed()` and the CLI use.
 */
export function exchangesToDeliveries(exchanges: readonly Exchange[], relay: string): Delivery[] {
  const items: RelayItem[] = [];
  exchanges.forEach((x, stream) => {
    const request = { method: x.method, url: x.url, headers: x.headers, startTime: x.startTime, ...(x.body === undefined ? {} : { body: x.body }) };
    items.push({ kind: 'open', stream, api: 'fetch', request });
    if (x.status !== 0 || x.responseHeaders.length > 0) items.push({ kind: 'response', stream, response: { status: x.status, headers: x.responseHeaders } });
    const decoder = new TextDecoder();
    for (const c of x.chunks) {
      const bytes = typeof c.data === 'string' ? new TextEncoder().encode(c.data).length : c.data.length;
      const text = typeof c.data === 'string' ? c.data : decoder.decode(c.data, { stream: true });
      items.push({ kind: 'chunk', stream, time: c.time, bytes, text });
    }
    const tail = decoder.decode();
    if (tail !== '') items.push({ kind: 'chunk', stream, time: x.end.time ?? x.startTime, bytes: 0, text: tail });
    if (x.end.state !== 'open') items.push({ kind: 'end', stream, end: x.end });
  });
  return [{ from: 'relay', relay, seq: 0, items, counters: { sent: items.length, rejected: 0, tapDropped: 0 } }];
}

/**
 * A capture feed that replays recorded traffic (a HAR's exchanges or recorded deliveries)
 * through the same capture store the extension uses. "Reload and capture from start" replays it
 * again, under a new relay id as a reloaded page would have; `canReload: false` offers no such
 * button (the inline shell has no page to reload).
 */
export function createReplayAdapter(options: { canReload?: boolean } = {}) {
  let sink: PanelSink | null = null;
  let round = 0;
  let recorded: ((relay: string) => Delivery[]) | null = null;
  const play = () => {
    if (!sink || !recorded) return;
    sink.deliver(recorded(`replay-${++round}`), NO_BACKGROUND_DROPS);
  };
  const adapter: PanelAdapter = {
    connect(next) {
      sink = next;
      play();
      return () => void (sink = null);
    },
    attach: () => undefined,
    clear: () => undefined,
    reload: play,
    canReload: options.canReload ?? true,
  };
  return {
    adapter,
    /** Replays exchanges (from a HAR) as a fresh page would produce them. */
    replayExchanges(exchanges: readonly Exchange[]): void {
      recorded = (relay) => exchangesToDeliveries(exchanges, relay);
      play();
    },
    /** Replays deliveries recorded from the background, exactly as they came. */
    replayDeliveries(deliveries: readonly Delivery[]): void {
      recorded = () => [...deliveries];
      play();
    },
  };
}
