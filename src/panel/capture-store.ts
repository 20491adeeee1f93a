import { signal } from '@preact/signals';
import { createAnalyzer, type AnalysisOptions, type Analyzer, type Report } from '../core/index';
import type { BackgroundCounters, Delivery, NetworkExchange, RelayCounters, CapturedItem } from '../shared/messages';
import type { FidelityStatus, PanelAdapter, PanelSink } from './adapter';
import { countDrops, createDropLedger, type DropSummary } from './drop-ledger';
import { EVICT_TO, MAX_PANEL_EVENTS, evictOldestEvents, type ChunkMarks } from './event-cap';
import type { LoggedExchange } from './exchange-log';
import { createNavigationLog, type NavigationMark } from './navigation-log';
import { nextFrame } from './next-frame';

/** Exchanges the panel keeps by default (the user can change it); past it new ones are dropped and counted. */
export const MAX_EXCHANGES = 5_000;
/** Refused streams remembered, so their later items are not counted as orphans. */
const MAX_REFUSED = 100_000;

export interface StreamView {
  index: number;
  exchange: LoggedExchange;
}

/**
 * The panel's model: feeds every delivery into the analysis core as it arrives and publishes the
 * report, the streams and the drop counters as signals.
 */
export function createCaptureStore(adapter: PanelAdapter) {
  const report = signal<Report | null>(null);
  const streams = signal<ReadonlyMap<number, LoggedExchange>>(new Map());
  const drops = signal<DropSummary>(countDrops(createDropLedger()));
  const tabs = signal<readonly { tabId: number; items: number }[] | null>(null);
  /** Items of tabs the background let go past its tab cap (standalone viewer). */
  const tabsDropped = signal(0);
  /** Exchanges only the network panel saw: what the tap missed (workers, a page that lost it). */
  const networkOnly = signal(0);
  /** The inspected page's navigations: markers between the sessions of one tab's history. */
  const navigations = signal<readonly NavigationMark[]>([]);
  const navigationLog = createNavigationLog();
  /** Full-fidelity capture of the tab's Workers, as the background last said. */
  const fidelity = signal<FidelityStatus>({ attached: false, workers: 0 });
  const ledger = createDropLedger();
  let options: AnalysisOptions = {};
  let maxExchanges = MAX_EXCHANGES;
  let maxEvents = MAX_PANEL_EVENTS;
  /** Events the analysis holds now, and what it said of each kept chunk (what eviction cuts by). */
  let eventCount = 0;
  const chunkMarks = new WeakMap<LoggedExchange, ChunkMarks>();
  let analyzer: Analyzer = createAnalyzer(options);
  let log: LoggedExchange[] = [];
  let indexOf = new Map<string, number>();
  const byKey = new Map<string, LoggedExchange>();

  const refresh = () => {
    report.value = analyzer.report();
    const byIndex = new Map<number, LoggedExchange>();
    for (const [key, index] of indexOf) byIndex.set(index, byKey.get(key)!);
    streams.value = byIndex;
    drops.value = countDrops(ledger);
    navigations.value = navigationLog.marks();
    networkOnly.value = log.filter((e) => e.source === 'network').length;
  };
  // At most one report rebuild per frame, however fast events arrive (the queue holds `refresh`
  // once); the timeline paints what it gives in the same frame (see next-frame.ts).
  const schedule = () => void nextFrame(refresh);

  /** Runs one step of the analysis on stream `index`; returns how many events it completed. */
  const counted = (index: number, step: () => void): number => {
    const before = analyzer.events(index).length;
    step();
    const added = analyzer.events(index).length - before;
    eventCount += added;
    return added;
  };
  /** Feeds one chunk and notes what the analysis said of it. */
  const feedChunk = (index: number, marks: ChunkMarks, chunk: { time: number; data: string }) => {
    let end = -1;
    marks.events.push(counted(index, () => (end = analyzer.chunk(index, chunk))));
    marks.ends.push(end);
  };
  const feed = (e: LoggedExchange) => {
    const index = analyzer.open(e.request);
    indexOf.set(e.key, index);
    if (e.response) analyzer.respond(index, e.response);
    const marks: ChunkMarks = { events: [], ends: [] };
    chunkMarks.set(e, marks);
    for (const chunk of e.chunks) feedChunk(index, marks, chunk);
    if (e.end.state !== 'open') counted(index, () => analyzer.end(index, e.end));
  };
  const rebuild = () => {
    analyzer = createAnalyzer(options);
    indexOf = new Map();
    eventCount = 0;
    for (const e of log) feed(e);
  };
  /** The event cap: past it, the oldest events go (counted), and the analysis restarts on the rest. */
  const enforceEventCap = () => {
    if (eventCount <= maxEvents) return;
    const before = eventCount;
    if (evictOldestEvents(log, (e) => chunkMarks.get(e), eventCount - Math.floor(maxEvents * EVICT_TO)) === 0) return;
    rebuild();
    // Counted from the analysis itself: exactly the events that are no longer in it.
    ledger.panelEvicted += before - eventCount;
  };
  const add = (e: LoggedExchange): boolean => {
    if (log.length >= maxExchanges) return (ledger.panelDropped += 1), false;
    log.push(e);
    byKey.set(e.key, e);
    return true;
  };

  /**
   * Network reports the background matched to a tap copy not seen here yet: their error, kept
   * until the copy opens. Bounded by the exchange cap, like the log.
   */
  const pendingErrors = new Map<string, string>();
  /** Tap copies whose network twin was analysed first (a report that beat its copy): not fed again. */
  const mergedTap = new Set<string>();
  /** Tap copies whose network twin was analysed first: the copy takes the report's place when it opens, by its key. */
  const superseded = new Map<string, string>();
  /** The log changed under the analysis: it is rebuilt once the delivery is applied. */
  let stale = false;
  /** Tap copies the exchange cap refused (counted once, as an exchange): their items are not counted again. */
  const refused = new Set<string>();

  function applyItem(relay: string, item: CapturedItem, source: LoggedExchange['source'], merged: readonly number[] | undefined): void {
    const key = `${relay}:${item.stream}`;
    if (item.kind === 'open') {
      // The other copy of the same request (the tap's or the debugger's) stands for this one.
      if (merged?.includes(item.stream)) return void mergedTap.add(key);
      const e: LoggedExchange = { key, source, request: item.request, chunks: [], end: { state: 'open' } };
      const error = pendingErrors.get(key);
      if (error !== undefined) (e.networkError = error), pendingErrors.delete(key);
      if (mergedTap.has(key)) return; // its network twin, analysed first, stands for it
      const report = byKey.get(superseded.get(key) ?? '');
      superseded.delete(key);
      const at = report ? log.indexOf(report) : -1;
      if (report && at >= 0) {
        // In the report's place in the log (the order streams were seen), as if it had come first.
        e.networkError ??= report.end.error ?? '';
        log[at] = e;
        byKey.delete(report.key);
        byKey.set(key, e);
        stale = true;
        return;
      }
      if (add(e)) feed(e);
      else if (refused.size < MAX_REFUSED) refused.add(key);
      return;
    }
    const e = byKey.get(key);
    // A stale analysis is rebuilt from the log: the item is only logged here.
    const index = stale ? undefined : indexOf.get(key);
    if (!e || (!stale && index === undefined)) {
      // Its open was lost (a cap, counted where it happened): the rest has no stream to go in,
      // and is counted too. A copy whose twin stands for it, or one the panel refused, is not a loss.
      if (!mergedTap.has(key) && !refused.has(key)) ledger.orphaned += 1;
      return;
    }
    if (item.kind === 'response') {
      e.response = item.response;
      if (index !== undefined) analyzer.respond(index, item.response);
    } else if (item.kind === 'chunk') {
      const chunk = { time: item.time, data: item.text };
      e.chunks.push(chunk);
      const marks = chunkMarks.get(e);
      if (marks && index !== undefined) feedChunk(index, marks, chunk);
    } else {
      e.end = item.end;
      if (index !== undefined) counted(index, () => analyzer.end(index, item.end));
    }
  }

  /** A report of the network panel; the background has already paired it with its tap copy (`twin`). */
  function applyNetwork(x: NetworkExchange, twin: string | undefined): void {
    const key = `net:${x.id}`;
    if (twin !== undefined) {
      // Seen both ways: shown once, as the tap saw it, with the network panel's error.
      const error = x.end.error ?? '';
      const report = byKey.get(key);
      if (report) {
        // Analysed already, before its copy came: the report gives its place to the copy, which
        // has what a report lacks (Chrome's has no body; Firefox's has no per-chunk times and
        // no error, so its end is unknown). Past the cap the report stands for it.
        if (superseded.size >= maxExchanges) mergedTap.add(twin);
        else superseded.set(twin, key);
        return;
      }
      const t = byKey.get(twin);
      if (t) t.networkError ??= error;
      else if (pendingErrors.size < maxExchanges) pendingErrors.set(twin, error);
      return;
    }
    if (byKey.has(key)) return;
    const chunks = x.body ? [{ time: x.end.time ?? x.request.startTime, data: x.body }] : [];
    const e: LoggedExchange = { key, source: 'network', request: x.request, response: x.response, chunks, end: x.end };
    if (add(e)) feed(e);
  }

  const sink: PanelSink = {
    deliver(deliveries: readonly Delivery[], counters: BackgroundCounters) {
      ledger.background = counters;
      for (const d of deliveries) {
        if (d.from === 'network') {
          ledger.networkDropped = Math.max(ledger.networkDropped, d.dropped ?? 0);
          applyNetwork(d.exchange, d.twin);
        } else if (d.from === 'navigation') navigationLog.add(d);
        else for (const { item } of ledger.accept(d.relay, d.seq, d.items, d.counters)) applyItem(d.relay, item, d.by ?? 'tap', d.merged);
      }
      if (stale) (stale = false), rebuild();
      enforceEventCap();
      schedule();
    },
    relayStatus(relays: readonly { relay: string; counters: RelayCounters }[]) {
      for (const r of relays) ledger.status(r.relay, r.counters);
      schedule();
    },
    tabs(list, dropped) {
      tabs.value = list;
      tabsDropped.value = dropped;
    },
    fidelity(status) {
      fidelity.value = status;
    },
  };

  return {
    report,
    streams,
    drops,
    networkOnly,
    navigations,
    tabs,
    tabsDropped,
    start: () => adapter.connect(sink),
    attach: (tabId: number) => {
      tabs.value = null;
      adapter.attach(tabId);
    },
    /** "Reload and capture from start": forget everything, then reload the inspected page. */
    reloadAndCapture() {
      ledger.forgetRelays();
      log = [];
      byKey.clear();
      pendingErrors.clear();
      mergedTap.clear();
      superseded.clear();
      refused.clear();
      navigationLog.clear();
      rebuild();
      adapter.clear();
      adapter.reload();
      refresh();
    },
    canReload: adapter.canReload,
    fidelity,
    /** The switch, where the browser has one: its warning, its permission request, on and off. */
    fidelityControl: adapter.fidelity,
    /** The buffer cap from the settings; exchanges already kept stay, later ones are dropped and counted. */
    setMaxExchanges(next: number) {
      maxExchanges = next;
    },
    /** The event cap from the settings; lowering it evicts the oldest events now (counted). */
    setMaxEvents(next: number) {
      maxEvents = next;
      enforceEventCap();
      refresh();
    },
    /** Analyses everything captured so far again, e.g. with new app-sequence pointers. */
    setOptions(next: AnalysisOptions) {
      options = next;
      rebuild();
      refresh();
    },
    events: (index: number) => analyzer.events(index),
  };
}

export type CaptureStore = ReturnType<typeof createCaptureStore>;
