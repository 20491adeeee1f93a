import { claimsTapSource, isBackgroundPoll, make, type RelayCounters, type TapItem } from '../shared/messages';
import { validateTapBatch } from '../shared/tap-validation';
import type { PortClient } from './port-client';

/** Batches a relay holds while the worker (re)starts; the oldest go first, and show as gaps. */
export const MAX_RELAY_QUEUE = 1_024;

/** Streams one page may open; past it new streams are rejected (and counted). */
export const MAX_STREAMS_PER_PAGE = 100_000;

export interface RelayDeps {
  win: Window;
  relay: string;
  /** Built by the caller so tests can pass a fake; see port-client.ts. */
  port: (counters: () => RelayCounters) => PortClient;
  /** Subscribes to runtime messages (the background's poll). */
  onRuntimeMessage(listener: (message: unknown) => void): void;
}

/**
 * The isolated-world content script. Every page message that claims the tap's brand is
 * validated (the page is untrusted); clean items are numbered and forwarded, anything else is
 * dropped and counted. Item numbers are consecutive per relay, so whatever is lost downstream
 * shows up as a gap at the panel.
 */
export function startRelay(deps: RelayDeps): { counters: () => RelayCounters } {
  const counters: RelayCounters = { sent: 0, rejected: 0, tapDropped: 0 };
  const snapshot = () => ({ ...counters });
  const port = deps.port(snapshot);
  const used = new Set<number>();
  const live = new Set<number>();
  let reportScheduled = false;

  // Items must follow their stream's life: open once, then response/chunks, then end.
  const consistent = (item: TapItem): boolean => {
    if (item.kind === 'open') {
      if (used.has(item.stream) || used.size >= MAX_STREAMS_PER_PAGE) return false;
      used.add(item.stream);
      live.add(item.stream);
      return true;
    }
    if (!live.has(item.stream)) return false;
    if (item.kind === 'end') live.delete(item.stream);
    return true;
  };

  const sendCounters = () => {
    reportScheduled = false;
    port.send(make('relay-status', { relay: deps.relay, counters: snapshot() }));
  };

  deps.win.addEventListener('message', (event: MessageEvent) => {
    if (!claimsTapSource(event.data)) return; // not ours at all: ignore, count nothing
    const checked = event.source === deps.win ? validateTapBatch(event.data) : { items: [], rejected: 1, tapDropped: null };
    const items = checked.items.filter(consistent);
    counters.rejected += checked.rejected + (checked.items.length - items.length);
    if (checked.tapDropped !== null) counters.tapDropped = Math.max(counters.tapDropped, checked.tapDropped);
    if (items.length === 0) {
      // Only forgeries: report the count once per task, not once per forged message.
      if (!reportScheduled && counters.rejected > 0) {
        reportScheduled = true;
        setTimeout(sendCounters, 0);
      }
      return;
    }
    const seq = counters.sent;
    counters.sent += items.length;
    port.send(make('relay-batch', { relay: deps.relay, seq, items, counters: snapshot() }));
  });

  deps.onRuntimeMessage((message) => {
    // A panel attached: say how much this frame sent, so losses after the last delivery show.
    if (isBackgroundPoll(message) && (counters.sent > 0 || counters.rejected > 0)) sendCounters();
  });

  return { counters: snapshot };
}
