import type { TapApi, TapLoss } from '../../shared/messages';
import type { Primordials } from './primordials';

/**
 * How often a watching tap checks that the page still goes through its wrappers. A check is a
 * handful of property-descriptor reads, so this costs nothing measurable; it runs only while a
 * panel is attached or once the page has made MCP traffic (there is something to lose).
 */
export const LOSS_CHECK_MS = 1_000;

/** A property the tap set, which the page must keep for the tap to see its traffic. */
export interface Guarded {
  api: TapApi;
  holder: object;
  key: string;
  /** What the tap put there. */
  mine: unknown;
}

/** Where the tap's wrappers live in `win`, as they are right after it installed them. */
export function guardedPlaces(win: Window & typeof globalThis): Guarded[] {
  const proto = win.XMLHttpRequest.prototype;
  const places: Omit<Guarded, 'mine'>[] = [
    { api: 'fetch', holder: win, key: 'fetch' },
    { api: 'xhr', holder: win, key: 'XMLHttpRequest' },
    { api: 'xhr', holder: proto, key: 'open' },
    { api: 'xhr', holder: proto, key: 'send' },
    { api: 'xhr', holder: proto, key: 'setRequestHeader' },
  ];
  if (win.EventSource) places.push({ api: 'eventsource', holder: win, key: 'EventSource' });
  return places.map((place) => ({ ...place, mine: (place.holder as Record<string, unknown>)[place.key] }));
}

/**
 * Notices when the page replaces or freezes over a wrapper of the tap (`window.fetch = other`,
 * `Object.defineProperty(window, 'fetch', { value, writable: false })`, a getter, a deletion):
 * anything but the tap's own data property counts. It cannot tell a replacement that still calls
 * through (a monitoring library's wrapper) from one that does not, so it reports a possible loss,
 * and the network panel's exchanges show which requests the tap really missed. A page that never
 * touches `window.fetch` and calls another realm's fetch (an iframe's) is not noticed here at all,
 * nor is one that swaps fetch out and back between two checks; those requests, too, show only as
 * exchanges from the network panel. The page cannot silence a report: it goes over the tap's
 * private port with built-ins taken before any page script ran.
 */
export function createLossWatch(p: Pick<Primordials, 'describe' | 'now'>, places: readonly Guarded[]) {
  const lost = new Set<TapApi>();
  const apis = new Set(places.map((place) => place.api));
  return {
    /** Checks every place once; returns the APIs found lost since the last check. */
    check(): TapLoss[] {
      const found: TapLoss[] = [];
      for (const place of places) {
        if (lost.has(place.api)) continue;
        let own: PropertyDescriptor | undefined;
        try {
          own = p.describe(place.holder, place.key);
        } catch {
          own = undefined;
        }
        if (own && 'value' in own && own.value === place.mine) continue;
        lost.add(place.api);
        found.push({ api: place.api, time: p.now() });
      }
      return found;
    },
    /** Every API is lost: nothing left to check. */
    done: () => lost.size === apis.size,
  };
}

export interface LossTimerDeps {
  p: Pick<Primordials, 'describe' | 'now' | 'setTimeout'>;
  places: readonly Guarded[];
  report(loss: TapLoss): void;
  /** Whether checks should go on (a panel is attached, or the page has captures to protect). */
  watching(): boolean;
}

/**
 * Runs {@link createLossWatch} on a timer of LOSS_CHECK_MS while `watching()` holds. `wake()`
 * (re)starts the timer and is cheap enough to call on every captured item; `checkNow()` also
 * checks at once (when a panel attaches).
 */
export function startLossTimer(deps: LossTimerDeps) {
  const watch = createLossWatch(deps.p, deps.places);
  let ticking = false;
  const check = () => {
    for (const loss of watch.check()) deps.report(loss);
  };
  const tick = () => {
    ticking = false;
    check();
    wake();
  };
  function wake(): void {
    if (ticking || watch.done() || !deps.watching()) return;
    ticking = true;
    deps.p.setTimeout(tick, LOSS_CHECK_MS);
  }
  return {
    wake,
    checkNow(): void {
      check();
      wake();
    },
  };
}
