import { make, type TapItem } from '../../shared/messages';
import { MAX_BATCH_CHARS, MAX_BATCH_ITEMS } from '../../shared/tap-validation';
import type { Primordials } from './primordials';

/** Flush early when this many characters are waiting, well under the relay's MAX_BATCH_CHARS. */
export const FLUSH_CHARS = MAX_BATCH_CHARS / 4;
/** Flush early when this many items are waiting, well under the relay's MAX_BATCH_ITEMS. */
export const FLUSH_ITEMS = MAX_BATCH_ITEMS / 4;

export interface TapEmitter {
  emit(item: TapItem): void;
  /** Counts an item the tap had to give up on (a cap); the count travels with the next batch. */
  drop(count?: number): void;
}

/**
 * Batches items and posts them to the relay of this frame. Items of one task are coalesced by a
 * zero-delay timer, so a burst of small SSE reads costs one postMessage instead of thousands,
 * while an event still reaches the relay within the same frame time.
 */
export function createTapEmitter(p: Primordials): TapEmitter {
  let queue: TapItem[] = [];
  let chars = 0;
  let scheduled = false;
  let dropped = 0;

  function flush(): void {
    scheduled = false;
    if (queue.length === 0) return;
    const items = queue;
    queue = [];
    chars = 0;
    p.post(make('tap-batch', { items, dropped }));
  }

  return {
    emit(item) {
      queue.push(item);
      if (item.kind === 'chunk') chars += item.text.length;
      if (chars >= FLUSH_CHARS || queue.length >= FLUSH_ITEMS) flush();
      else if (!scheduled) {
        scheduled = true;
        p.setTimeout(flush, 0);
      }
    },
    drop(count = 1) {
      dropped += count;
    },
  };
}
