import type { Delivery } from '../shared/messages';

/** Items a tab's history keeps while no panel reads it (and for a panel opened late). */
export const MAX_TAB_ITEMS = 20_000;
/** Characters of chunk text a tab's history keeps: the "small bounded per-tab buffer". */
export const MAX_TAB_CHARS = 4 * 1024 * 1024;

export interface TabBuffer {
  /** Keeps `delivery`; returns its position (positions count up from 0 and are never reused). */
  push(delivery: Delivery): number;
  /** The history, oldest first. */
  all(): readonly Delivery[];
  /** Position of the oldest kept delivery (equal to `next()` when empty). */
  first(): number;
  /** Position the next delivery will take. */
  next(): number;
  items(): number;
  clear(): void;
  /** Items evicted by the caps since the buffer was made. */
  evicted(): number;
}

/** What a buffer is rebuilt from after the worker restarted (see session-history.ts). */
export interface TabBufferSeed {
  /** Position of `deliveries[0]`. */
  first: number;
  deliveries: Delivery[];
  evicted: number;
}

export const itemsOf = (d: Delivery) => (d.from === 'relay' ? d.items.length : 1);
function charsOf(d: Delivery): number {
  if (d.from === 'network') return (d.exchange.body?.length ?? 0) + (d.exchange.request.body?.length ?? 0);
  if (d.from === 'navigation') return d.url.length;
  let chars = 0;
  for (const item of d.items) if (item.kind === 'chunk') chars += item.text.length;
  return chars;
}

/**
 * A bounded FIFO of deliveries. It evicts whole deliveries from the head, so what a late panel
 * receives is a contiguous tail per relay, and each eviction is counted.
 */
export function createTabBuffer(maxItems = MAX_TAB_ITEMS, maxChars = MAX_TAB_CHARS, seed?: TabBufferSeed): TabBuffer {
  // An evicted slot is emptied at once: the array is compacted only now and then, and until it is,
  // a slot still holding its delivery would keep up to twice the cap alive.
  let entries: (Delivery | undefined)[] = [];
  let base = seed?.first ?? 0; // position of entries[0]
  let head = 0; // index of the oldest kept entry; compacted lazily to avoid O(n) shifts
  let items = 0;
  let chars = 0;
  let evicted = seed?.evicted ?? 0;

  const buffer: TabBuffer = {
    push(delivery) {
      const at = base + entries.length;
      entries.push(delivery);
      items += itemsOf(delivery);
      chars += charsOf(delivery);
      while ((items > maxItems || chars > maxChars) && head < entries.length) {
        const old = entries[head]!;
        entries[head++] = undefined;
        items -= itemsOf(old);
        chars -= charsOf(old);
        evicted += itemsOf(old);
      }
      if (head > 1024 && head * 2 > entries.length) {
        entries = entries.slice(head);
        base += head;
        head = 0;
      }
      return at;
    },
    all: () => entries.slice(head) as Delivery[],
    first: () => base + head,
    next: () => base + entries.length,
    items: () => items,
    clear() {
      base += entries.length;
      entries = [];
      head = 0;
      items = 0;
      chars = 0;
    },
    evicted: () => evicted,
  };
  // A seed saved within the same caps evicts nothing; one from larger caps is cut and counted.
  for (const d of seed?.deliveries ?? []) buffer.push(d);
  return buffer;
}
