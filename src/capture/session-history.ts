import type { Delivery } from '../shared/messages';

/**
 * The slice of `browser.storage.session` the background uses. That area lives as long as the
 * browser session, not as long as the worker: it is what carries a tab's history through an MV3
 * service worker's stop (and a Firefox event page's unload). Tests pass a Map-backed fake.
 */
export interface SessionArea {
  get(keys: null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/** What the router keeps about a tab besides its deliveries. */
export interface TabMeta {
  /** Positions of the oldest kept delivery and of the next one (see TabBuffer). */
  first: number;
  next: number;
  /** Items the tab's history evicted, plus items a failed write could not keep. */
  evicted: number;
  captured: boolean;
  /** The next item number of each relay: what a relay sends again after a restart is kept once. */
  relays: Record<string, number>;
}

export interface SavedTab {
  meta: TabMeta;
  /** Deliveries `meta.first` to `meta.next - 1`; one whose write failed is missing (and counted). */
  deliveries: Delivery[];
}

const metaKey = (tabId: number) => `tab:${tabId}`;
const deliveryKey = (tabId: number, at: number) => `d:${tabId}:${at}`;
/** Relays remembered per tab (one per document and frame); the oldest are forgotten first. */
export const MAX_SAVED_RELAYS = 64;

const isMeta = (v: unknown): v is TabMeta => {
  const m = v as TabMeta;
  return typeof m === 'object' && m !== null && Number.isInteger(m.first) && Number.isInteger(m.next) && m.first <= m.next &&
    typeof m.evicted === 'number' && typeof m.relays === 'object' && m.relays !== null;
};

/**
 * Writes a tab's history to the session area as it changes: one key per delivery (positions
 * never reuse a key), removed as the tab buffer evicts it, plus one small record per tab. Writes
 * of one task are coalesced into one `set` and one `remove`, and run one after another, so the
 * area always holds a prefix of what the router saw; what the last writes missed when the worker
 * stopped is what the relays send again (their replay window) after the restart.
 */
export function createSessionHistory(area: SessionArea) {
  let sets: Record<string, unknown> = {};
  let removes = new Set<string>();
  /** Items of deliveries whose write failed (quota): added to the tab's evictions on the next write. */
  const failed = new Map<number, number>();
  const metas = new Map<number, TabMeta>();
  let scheduled = false;
  let writing = Promise.resolve();

  function flush(): void {
    scheduled = false;
    const batch = sets;
    const gone = [...removes];
    sets = {};
    removes = new Set();
    for (const [tabId, meta] of metas) batch[metaKey(tabId)] = { ...meta, evicted: meta.evicted + (failed.get(tabId) ?? 0) };
    metas.clear();
    writing = writing.then(async () => {
      if (gone.length > 0) await area.remove(gone).catch(() => undefined);
      await area.set(batch).catch(() => {
        // All or nothing: count the deliveries this write held, then keep at least the records.
        for (const key of Object.keys(batch)) {
          const [kind, tab] = key.split(':');
          const d = batch[key] as Delivery;
          if (kind === 'd') failed.set(Number(tab), (failed.get(Number(tab)) ?? 0) + (d.from === 'relay' ? d.items.length : 1));
        }
        const records = Object.fromEntries(Object.entries(batch).filter(([k]) => k.startsWith('tab:')));
        return area.set(records).catch(() => undefined);
      });
    });
  }
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(flush, 0);
  };

  return {
    /** Everything saved, by tab; called once when the worker starts. */
    async load(): Promise<Map<number, SavedTab>> {
      const all = await area.get(null).catch(() => ({}) as Record<string, unknown>);
      const tabs = new Map<number, SavedTab>();
      for (const [key, value] of Object.entries(all)) {
        const [kind, tab] = key.split(':');
        if (kind !== 'tab' || !isMeta(value)) continue;
        const meta = { ...value, relays: { ...value.relays } };
        const deliveries: Delivery[] = [];
        for (let at = meta.first; at < meta.next; at += 1) {
          const d = all[deliveryKey(Number(tab), at)] as Delivery | undefined;
          if (d && typeof d === 'object') deliveries.push(d);
        }
        tabs.set(Number(tab), { meta, deliveries });
      }
      return tabs;
    },
    /** Saves (or saves again, after it changed) the tab's delivery at `at`. */
    put(tabId: number, at: number, delivery: Delivery): void {
      const key = deliveryKey(tabId, at);
      removes.delete(key);
      sets[key] = delivery;
      schedule();
    },
    /** The tab buffer evicted positions `from` to `to - 1`. */
    drop(tabId: number, from: number, to: number): void {
      for (let at = from; at < to; at += 1) {
        const key = deliveryKey(tabId, at);
        delete sets[key];
        removes.add(key);
      }
      if (from < to) schedule();
    },
    meta(tabId: number, meta: TabMeta): void {
      const names = Object.keys(meta.relays);
      const relays = names.length > MAX_SAVED_RELAYS ? Object.fromEntries(names.slice(-MAX_SAVED_RELAYS).map((r) => [r, meta.relays[r]!])) : meta.relays;
      metas.set(tabId, { ...meta, relays });
      schedule();
    },
    /** Forgets a tab: its record and its deliveries `from` to `to - 1`. */
    forget(tabId: number, from: number, to: number): void {
      metas.delete(tabId);
      failed.delete(tabId);
      for (let at = from; at < to; at += 1) delete sets[deliveryKey(tabId, at)];
      const keys = [metaKey(tabId)];
      for (let at = from; at < to; at += 1) keys.push(deliveryKey(tabId, at));
      writing = writing.then(() => area.remove(keys).catch(() => undefined));
    },
    /** Resolves once every write asked for so far is done (tests, and a clean shutdown). */
    async settled(): Promise<void> {
      if (scheduled) flush();
      await writing;
    },
  };
}

export type SessionHistory = ReturnType<typeof createSessionHistory>;
