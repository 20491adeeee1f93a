import type { TapItem } from '../../shared/messages';

/** Items a page keeps while no panel is attached. */
export const MAX_TAP_HISTORY_ITEMS = 5_000;
/** Body bytes a page keeps while no panel is attached: the "small bounded buffer". */
export const MAX_TAP_HISTORY_BYTES = 2 * 1024 * 1024;

const sizeOf = (item: TapItem) => (item.kind !== 'chunk' ? 0 : typeof item.data === 'string' ? item.data.length : item.data.byteLength);

/**
 * What one page captured while nobody watched, within two caps. Past the byte cap the oldest
 * body chunks go first and the small open/response/end records stay, so a panel opened late still
 * lists every stream; past the item cap the oldest items of any kind go. Every eviction counts.
 */
export function createTapHistory(maxItems = MAX_TAP_HISTORY_ITEMS, maxBytes = MAX_TAP_HISTORY_BYTES) {
  let slots: (TapItem | null)[] = [];
  let items = 0;
  let bytes = 0;
  let evicted = 0;
  let chunkScan = 0; // slots before it hold no chunk
  let anyScan = 0; // slots before it are all evicted

  const drop = (at: number) => {
    const item = slots[at]!;
    slots[at] = null;
    items -= 1;
    bytes -= sizeOf(item);
    evicted += 1;
  };

  return {
    push(item: TapItem): void {
      slots.push(item);
      items += 1;
      bytes += sizeOf(item);
      while (bytes > maxBytes && chunkScan < slots.length) {
        const slot = slots[chunkScan];
        if (slot?.kind === 'chunk') drop(chunkScan);
        chunkScan += 1;
      }
      while (items > maxItems && anyScan < slots.length) {
        if (slots[anyScan]) drop(anyScan);
        anyScan += 1;
      }
      // Evicted slots are holes; squeeze them out once they outnumber the kept items.
      if (slots.length > 1_024 && slots.length > 2 * items) {
        slots = slots.filter((s): s is TapItem => s !== null);
        chunkScan = 0;
        anyScan = 0;
      }
    },
    /** Empties the history, returning what it held, oldest first. */
    take(): TapItem[] {
      const kept = slots.filter((s): s is TapItem => s !== null);
      slots = [];
      items = bytes = chunkScan = anyScan = 0;
      return kept;
    },
    evicted: () => evicted,
    size: () => items,
  };
}
