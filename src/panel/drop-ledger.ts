import type { BackgroundCounters, CapturedItem, RelayCounters, TapLoss } from '../shared/messages';

interface RelayLedger {
  /** The next item number expected from this relay. */
  expected: number;
  /** Items the relay sent that never arrived (gaps in the numbering). */
  lost: number;
  counters: RelayCounters;
}

/**
 * Counts every item that did not make it to the panel, whatever dropped it. The relay numbers
 * its items, so a gap is a loss no matter where it happened (a relay queue cap, a worker that
 * died, a history buffer that evicted); the relays' own counters add what never got a number
 * (forged or oversized page messages, the tap's caps, the page-side history while no panel
 * was attached).
 */
export function createDropLedger() {
  const relays = new Map<string, RelayLedger>();
  const forgotten = new Set<string>();
  const get = (relay: string) => {
    let r = relays.get(relay);
    if (!r) relays.set(relay, (r = { expected: 0, lost: 0, counters: { sent: 0, rejected: 0, tapDropped: 0 } }));
    return r;
  };
  const merge = (r: RelayLedger, c: RelayCounters) => {
    r.counters = {
      sent: Math.max(r.counters.sent, c.sent),
      rejected: Math.max(r.counters.rejected, c.rejected),
      tapDropped: Math.max(r.counters.tapDropped, c.tapDropped),
      evicted: Math.max(r.counters.evicted ?? 0, c.evicted ?? 0),
      tapLost: earliestLosses([...(r.counters.tapLost ?? []), ...(c.tapLost ?? [])]),
    };
  };
  return {
    background: { evictedItems: 0, evictedTabs: 0, undelivered: 0 } as BackgroundCounters,
    /** Items the panel itself refused (its MAX_EXCHANGES cap). */
    panelDropped: 0,
    /** Events the panel's event cap (MAX_PANEL_EVENTS) evicted, oldest first. */
    panelEvicted: 0,
    /** Exchanges the devtools page's queue dropped while the worker restarted. */
    networkDropped: 0,
    /** Items of streams whose opening item never reached the panel (a cap took it): not shown. */
    orphaned: 0,
    relays: relays as ReadonlyMap<string, RelayLedger>,
    /** Returns the items of a delivery not seen before, counting any gap before them. */
    accept(relay: string, seq: number, items: readonly CapturedItem[], counters: RelayCounters): { item: CapturedItem }[] {
      if (forgotten.has(relay)) return [];
      const r = get(relay);
      merge(r, counters);
      if (seq > r.expected) r.lost += seq - r.expected;
      const fresh = items.slice(Math.max(0, r.expected - seq)).map((item) => ({ item }));
      r.expected = Math.max(r.expected, seq + items.length);
      return fresh;
    },
    /** A relay's counters, polled: items it sent past the last one received are lost. */
    status(relay: string, counters: RelayCounters): void {
      if (forgotten.has(relay)) return;
      const r = get(relay);
      merge(r, counters);
      if (counters.sent > r.expected) {
        r.lost += counters.sent - r.expected;
        r.expected = counters.sent;
      }
    },
    /** After "Reload and capture from start": the old page's relays are ignored from now on. */
    forgetRelays(): void {
      for (const relay of relays.keys()) forgotten.add(relay);
      relays.clear();
    },
  };
}

export type DropLedger = ReturnType<typeof createDropLedger>;

/** The earliest loss of each API: counters are cumulative, so the first report is the true one. */
export function earliestLosses(losses: readonly TapLoss[]): TapLoss[] {
  const first = new Map<TapLoss['api'], TapLoss>();
  for (const loss of losses) {
    const seen = first.get(loss.api);
    if (!seen || loss.time < seen.time) first.set(loss.api, { api: loss.api, time: loss.time });
  }
  return [...first.values()].sort((a, b) => a.time - b.time);
}

export interface DropSummary {
  total: number;
  rejected: number;
  tapDropped: number;
  /** Evicted from the page-side history before a panel attached. */
  evicted: number;
  lost: number;
  panelDropped: number;
  /** Oldest events evicted by the panel's event cap. */
  panelEvicted: number;
  networkDropped: number;
  /** Items of streams whose start a cap dropped: they have no stream to be shown in. */
  orphaned: number;
  background: BackgroundCounters;
  /** APIs a page took away from the tap (any frame), earliest first; not items, so not in `total`. */
  tapLost: TapLoss[];
}

export function countDrops(ledger: DropLedger): DropSummary {
  let rejected = 0;
  let tapDropped = 0;
  let lost = 0;
  let evicted = 0;
  const losses: TapLoss[] = [];
  for (const r of ledger.relays.values()) {
    losses.push(...(r.counters.tapLost ?? []));
    evicted += r.counters.evicted ?? 0;
    rejected += r.counters.rejected;
    tapDropped += r.counters.tapDropped;
    lost += r.lost;
  }
  const { panelDropped, panelEvicted, networkDropped, orphaned } = ledger;
  const total = rejected + tapDropped + evicted + lost + panelDropped + panelEvicted + networkDropped + orphaned;
  return { total, rejected, tapDropped, evicted, lost, panelDropped, panelEvicted, networkDropped, orphaned, background: ledger.background, tapLost: earliestLosses(losses) };
}
