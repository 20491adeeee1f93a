import { make, type TapItem, type TapLoss } from '../../shared/messages';
import { MAX_BATCH_BYTES, MAX_BATCH_ITEMS } from '../../shared/tap-validation';
import { createTapHistory } from './history';
import type { Primordials } from './primordials';

/** Flush early when this many bytes are waiting, well under the relay's MAX_BATCH_BYTES. */
export const FLUSH_BYTES = MAX_BATCH_BYTES / 4;
/** Flush early when this many items are waiting, well under the relay's MAX_BATCH_ITEMS. */
export const FLUSH_ITEMS = MAX_BATCH_ITEMS / 4;

export interface TapEmitter {
  /** Chunk bytes may be the page's own buffer: they are copied before `emit` returns. */
  emit(item: TapItem): void;
  /** Counts an item the tap had to give up on (a cap); the count travels with the next batch. */
  drop(count?: number): void;
  /** The relay says whether a panel is attached; attaching sends the history first. */
  setAttached(attached: boolean): void;
  /** The page took an API away from the tap: posted now if attached, else held until attached. */
  lost(loss: TapLoss): void;
  /** A panel is attached, or the page has captures: a lost API would matter. */
  watching(): boolean;
}

const sizeOf = (item: TapItem) => (item.kind !== 'chunk' ? 0 : typeof item.data === 'string' ? item.data.length : item.data.byteLength);

/**
 * Where captured items go. While no panel is attached: into a small bounded history, and nothing
 * leaves the page but one empty `tap-hello`. While attached: batched and posted to the relay of
 * this frame; items of one task are coalesced by a zero-delay timer, so a burst of small SSE reads
 * costs one postMessage instead of thousands.
 */
export function createTapEmitter(p: Primordials): TapEmitter {
  const history = createTapHistory();
  let attached = false;
  let helloSent = false;
  let queue: TapItem[] = [];
  /** Buffers of the queued chunks' copies: the tap's own, moved to the relay with their batch. */
  let transfer: ArrayBuffer[] = [];
  let size = 0;
  let scheduled = false;
  let dropped = 0;
  /** Losses noticed while no panel was attached; at most one per API. */
  let heldLosses: TapLoss[] = [];

  function flush(): void {
    scheduled = false;
    if (queue.length === 0) return;
    const [items, buffers] = [queue, transfer];
    queue = [];
    transfer = [];
    size = 0;
    p.post(make('tap-batch', { items, dropped, evicted: history.evicted() }), buffers);
  }

  /** `item` is the tap's own: a chunk's bytes were copied already. */
  function enqueue(item: TapItem): void {
    queue.push(item);
    size += sizeOf(item);
    if (size >= FLUSH_BYTES || queue.length >= FLUSH_ITEMS) flush();
    else if (!scheduled) {
      scheduled = true;
      p.setTimeout(flush, 0);
    }
  }

  return {
    emit(item) {
      // Chunk bytes are borrowed from the page (BodySink): copied here into a buffer that is then
      // moved, not copied again, to the relay; while detached the history copies them into its ring.
      if (attached) {
        if (item.kind !== 'chunk' || typeof item.data === 'string') return enqueue(item);
        const { copy, buffer } = p.copyBytes(item.data);
        transfer.push(buffer);
        return enqueue({ ...item, data: copy });
      }
      history.push(item);
      if (!helloSent) {
        helloSent = true;
        p.post(make('tap-hello', {}));
      }
    },
    drop(count = 1) {
      dropped += count;
    },
    setAttached(next) {
      attached = next;
      if (!attached) return;
      for (const item of history.take()) enqueue(item);
      for (const loss of heldLosses) p.post(make('tap-lost', loss));
      heldLosses = [];
    },
    lost(loss) {
      if (attached) p.post(make('tap-lost', loss));
      else heldLosses.push(loss);
    },
    watching: () => attached || helloSent,
  };
}
