import type { RequestInfo } from '../core/index';
import type { BackgroundProducer, Delivery, NetworkExchange } from '../shared/messages';
import { sameRequest } from './network-exchange';

/** Tap-recorded requests of a tab a network report may still be matched to; the oldest go first. */
export const MAX_TWIN_OPENS = 2_048;
/** Network-only reports of a tab a later tap open may still be matched to; the oldest go first. */
export const MAX_NETWORK_ONLY = 256;

type NetworkDelivery = Extract<Delivery, { from: 'network' }>;

/** Who recorded a copy of a request in the page's own terms: a page tap, or a background producer. */
export type CopyProducer = 'tap' | BackgroundProducer;

interface TapOpen {
  request: RequestInfo;
  /** A network report was already matched to it (Firefox may report an aborted request twice). */
  matched: boolean;
  by: CopyProducer;
  /** The other producer's copy of the same request was merged into this one. */
  paired: boolean;
}

/**
 * How much later than a report's end a copy may say its request started and still be that
 * request: the two clocks read the same wall time, but a HAR rounds its times.
 */
export const END_SKEW_MS = 250;

/**
 * A network report and a copy are of one request when they look alike (`sameRequest`) and the
 * copy's request did not start after the reported one had ended. Clients send identical requests
 * again (`initialize` carries no session id), so look-alikes a few seconds apart are common, and
 * pairing a report with a later request's copy would put that copy in the report's place.
 */
function twinsOf(report: NetworkExchange, copy: RequestInfo): boolean {
  if (!sameRequest(report.request, copy)) return false;
  const end = report.end.time;
  return end === undefined || !Number.isFinite(end) || copy.startTime <= Math.max(end, report.request.startTime) + END_SKEW_MS;
}

const setCapped = <K, V>(map: Map<K, V>, key: K, value: V, max: number) => {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
};

/**
 * Pairs the network panel's report of a request with the tap's copy of the same request, in the
 * capture layer, so the panel is handed one exchange per request and never has to re-run the
 * analysis to take a duplicate out. The tap's copy is the one kept: it has per-chunk timing, and
 * the report adds only its error. The usual order is tap first (the tap sees a request start, the
 * network panel only its end); a report that comes first is kept as network-only until a tap
 * open matches it, and then rewritten as that open's twin.
 */
export function createTwinIndex() {
  const opens = new Map<string, TapOpen>();
  const networkOnly = new Map<string, { at: number; delivery: NetworkDelivery }>();
  const gap = (a: RequestInfo, b: RequestInfo) => Math.abs(a.startTime - b.startTime);

  /**
   * A copy's open by `by`: true when the other producer (tap or debugger) already holds a copy
   * of the same request, which then stands for this one. The first copy is kept whole, so the
   * panel never switches copies mid-stream; the debugger holds back a page request's open
   * until its response, so the tap's copy, opened before the request left the page, is
   * normally first. A merged copy is not indexed: network reports pair with the one shown.
   */
  function copyOpened(request: RequestInfo, by: CopyProducer): boolean {
    let best: TapOpen | undefined;
    for (const o of opens.values()) {
      if (o.by === by || o.paired || !sameRequest(o.request, request)) continue;
      if (!best || gap(o.request, request) < gap(best.request, request)) best = o;
    }
    if (best) best.paired = true;
    return best !== undefined;
  }

  return {
    copyOpened,
    /** A copy's open `key` (`relay:stream`); returns the buffered network-only report it twins, if any. */
    tapOpened(key: string, request: RequestInfo, by: CopyProducer = 'tap'): { at: number; delivery: NetworkDelivery } | undefined {
      let best: { id: string; at: number; delivery: NetworkDelivery } | undefined;
      for (const [id, n] of networkOnly) {
        if (twinsOf(n.delivery.exchange, request) && (!best || gap(n.delivery.exchange.request, request) < gap(best.delivery.exchange.request, request))) best = { id, ...n };
      }
      setCapped(opens, key, { request, matched: best !== undefined, by, paired: false }, MAX_TWIN_OPENS);
      if (!best) return undefined;
      networkOnly.delete(best.id);
      twinOf(best.delivery, key);
      return best;
    },
    /**
     * A network report, kept at position `at` of the tab's history: returns it as the twin of a
     * tap copy when there is one (unmatched copies first, then the closest start time).
     */
    network(at: number, exchange: NetworkExchange, dropped?: number): NetworkDelivery {
      let twin: string | undefined;
      let twinOpen: TapOpen | undefined;
      for (const [key, o] of opens) {
        if (!twinsOf(exchange, o.request)) continue;
        if (!twinOpen || (o.matched !== twinOpen.matched ? !o.matched : gap(o.request, exchange.request) < gap(twinOpen.request, exchange.request))) {
          twin = key;
          twinOpen = o;
        }
      }
      const delivery: NetworkDelivery = { from: 'network', exchange, ...(dropped === undefined ? {} : { dropped }) };
      if (twin === undefined) {
        setCapped(networkOnly, exchange.id, { at, delivery }, MAX_NETWORK_ONLY);
        return delivery;
      }
      twinOpen!.matched = true;
      twinOf(delivery, twin);
      return delivery;
    },
    /** Rebuilds the index from a history restored after a restart. */
    restore(deliveries: readonly Delivery[], first: number): void {
      deliveries.forEach((d) => {
        if (d.from !== 'relay') return;
        for (const item of d.items) {
          if (item.kind !== 'open') continue;
          // A merged copy's twin is open already: this only marks it paired.
          if (d.merged?.includes(item.stream)) copyOpened(item.request, d.by ?? 'tap');
          else setCapped(opens, `${d.relay}:${item.stream}`, { request: item.request, matched: false, by: d.by ?? 'tap', paired: false }, MAX_TWIN_OPENS);
        }
      });
      deliveries.forEach((d, i) => {
        if (d.from !== 'network') return;
        const o = d.twin === undefined ? undefined : opens.get(d.twin);
        if (o) o.matched = true;
        else if (d.twin === undefined) setCapped(networkOnly, d.exchange.id, { at: first + i, delivery: d }, MAX_NETWORK_ONLY);
      });
    },
    /** Whether a relay `fromTap(relay)` accepts has opened `request` (a background capture asks before taking it). */
    opened(request: RequestInfo, fromTap: (key: string) => boolean): boolean {
      for (const [key, o] of opens) if (fromTap(key) && sameRequest(request, o.request)) return true;
      return false;
    },
    clear(): void {
      opens.clear();
      networkOnly.clear();
    },
  };
}

/** Makes `delivery` the twin of tap copy `key`: the body is the tap's to show, so it is not kept twice. */
function twinOf(delivery: NetworkDelivery, key: string): void {
  delivery.twin = key;
  delivery.exchange = { ...delivery.exchange, body: null };
}
