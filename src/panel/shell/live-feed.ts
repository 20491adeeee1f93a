import type { Delivery } from '../../shared/messages';
import type { PanelAdapter, PanelSink } from '../adapter';
import { isDeliveryShape } from './load-recording';

/** What the page says about its feed. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'ended';

const NO_BACKGROUND_DROPS = { evictedItems: 0, evictedTabs: 0, undelivered: 0 };
/** Deliveries held until the panel connects (it does so at once; this only bounds the wait). */
const MAX_EARLY_DELIVERIES = 10_000;

/**
 * The live view's capture feed: the proxy's recording, delivered over SSE (`EventSource`) as a
 * page relay would deliver it. Each message is one delivery, shape-checked before use (its text
 * came from proxied streams). A feed whose connection breaks is reopened by `EventSource` itself,
 * with the id of the last message it had as `Last-Event-ID`: the proxy goes on from there, in the
 * same relay numbering, so nothing arrives twice and a gap would show in the drop counter. The
 * feed ends for good when the proxy says so (`event: end`) or refuses the reconnect.
 */
export function createLiveFeed(url: string, onState: (state: LiveState) => void): { adapter: PanelAdapter } {
  let sink: PanelSink | null = null;
  const early: Delivery[] = [];
  const source = new EventSource(url);
  onState('connecting');
  source.onopen = () => onState('live');
  source.onerror = () => {
    // CONNECTING: the browser retries on its own. CLOSED: the proxy answered with an error.
    onState(source.readyState === EventSource.CLOSED ? 'ended' : 'reconnecting');
  };
  source.addEventListener('end', () => {
    source.close();
    onState('ended');
  });
  source.onmessage = (message: MessageEvent<string>) => {
    let value: unknown;
    try {
      value = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!isDeliveryShape(value) || value.from !== 'relay') return;
    if (sink) sink.deliver([value], NO_BACKGROUND_DROPS);
    else if (early.length < MAX_EARLY_DELIVERIES) early.push(value);
    // Past the cap a delivery is dropped: the relay numbering shows the gap in the panel's drop counter.
  };
  const adapter: PanelAdapter = {
    connect(next) {
      sink = next;
      if (early.length > 0) sink.deliver(early.splice(0), NO_BACKGROUND_DROPS);
      return () => {
        sink = null;
        source.close();
      };
    },
    attach: () => undefined,
    clear: () => undefined,
    reload: () => undefined,
    canReload: false,
  };
  return { adapter };
}
