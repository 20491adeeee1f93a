import type { CapturedItem, RelayCounters } from '../shared/messages';
import { debuggerCounters } from './debugger/cdp-network';

/** Where a capture made in the background hands its items: numbered like a relay's (router.captured). */
export type DeliverCaptured = (tabId: number, relay: string, seq: number, items: CapturedItem[], counters: RelayCounters) => void;

/**
 * One run of a background capture of one tab (the debugger's, webRequest's): a relay id of its
 * own, items numbered from 0 and handed on in one batch per task, and its drop count in the
 * relay's counters, so the router keeps them as it keeps a relay's.
 */
export function createCaptureRun(tabId: number, relay: string, deliver: DeliverCaptured) {
  let sent = 0;
  let dropped = 0;
  let streams = 0;
  let queue: CapturedItem[] = [];
  let scheduled = false;
  function flush(): void {
    scheduled = false;
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    const seq = sent;
    sent += items.length;
    deliver(tabId, relay, seq, items, debuggerCounters(sent, dropped));
  }
  return {
    relay,
    nextStream: () => streams++,
    emit(item: CapturedItem): void {
      queue.push(item);
      if (scheduled) return;
      scheduled = true;
      setTimeout(flush, 0);
    },
    drop(): void {
      dropped += 1;
    },
    /** Hands on what is queued now (the run ends). */
    flush,
  };
}
