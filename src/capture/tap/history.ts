import type { TapItem } from '../../shared/messages';

/** Items a page keeps while no panel is attached. */
export const MAX_TAP_HISTORY_ITEMS = 5_000;
/** Body bytes a page keeps while no panel is attached: the "small bounded buffer". */
export const MAX_TAP_HISTORY_BYTES = 2 * 1024 * 1024;

/** A kept byte chunk: its bytes are `length` bytes of the ring, from absolute position `at`. */
interface RingChunk {
  kind: 'ring-chunk';
  stream: number;
  time: number;
  at: number;
  length: number;
}
type Slot = TapItem | RingChunk | null;

const sizeOf = (slot: TapItem | RingChunk) => (slot.kind === 'ring-chunk' ? slot.length : slot.kind !== 'chunk' ? 0 : typeof slot.data === 'string' ? slot.data.length : slot.data.byteLength);

/**
 * What one page captured while nobody watched, within two caps. Past the byte cap the oldest
 * body chunks go first and the small open/response/end records stay, so a panel opened late still
 * lists every stream; past the item cap the oldest items of any kind go. Every eviction counts.
 *
 * Body bytes are borrowed from the page, so they are copied, into one ring of `maxBytes` made on
 * the first of them: a new buffer per chunk would cost the page far more than the copy (large
 * allocations, and the garbage collections they bring on). Chunks go from the ring in the order
 * they came, as the byte cap evicts them, so a kept chunk always lies in the last `maxBytes`
 * bytes written and is never overwritten.
 */
export function createTapHistory(maxItems = MAX_TAP_HISTORY_ITEMS, maxBytes = MAX_TAP_HISTORY_BYTES) {
  let slots: Slot[] = [];
  let items = 0;
  let bytes = 0;
  let evicted = 0;
  let chunkScan = 0; // slots before it hold no chunk
  let anyScan = 0; // slots before it are all evicted
  let ring: Uint8Array | null = null;
  let written = 0; // bytes ever written to the ring; position `at` lives at `at % maxBytes`

  const drop = (at: number) => {
    bytes -= sizeOf(slots[at]!);
    slots[at] = null;
    items -= 1;
    evicted += 1;
  };

  /** Copies `data` into the ring. A chunk larger than the ring is not copied: the cap evicts it. */
  function keep(stream: number, time: number, data: Uint8Array): RingChunk {
    const chunk: RingChunk = { kind: 'ring-chunk', stream, time, at: written, length: data.byteLength };
    written += data.byteLength;
    if (data.byteLength > maxBytes) return chunk;
    ring ??= new Uint8Array(maxBytes);
    const from = chunk.at % maxBytes;
    const first = Math.min(data.byteLength, maxBytes - from);
    ring.set(first === data.byteLength ? data : data.subarray(0, first), from);
    if (first < data.byteLength) ring.set(data.subarray(first), 0);
    return chunk;
  }

  /** A fresh copy of a kept chunk's bytes, out of the ring. */
  function bytesOf(chunk: RingChunk): Uint8Array {
    const out = new Uint8Array(chunk.length);
    const from = chunk.at % maxBytes;
    const first = Math.min(chunk.length, maxBytes - from);
    out.set(ring!.subarray(from, from + first));
    if (first < chunk.length) out.set(ring!.subarray(0, chunk.length - first), first);
    return out;
  }

  return {
    /** Keeps `item`; its chunk bytes, if any, are copied (they may be the page's buffer). */
    push(item: TapItem): void {
      const slot = item.kind === 'chunk' && typeof item.data !== 'string' ? keep(item.stream, item.time, item.data) : item;
      slots.push(slot);
      items += 1;
      bytes += sizeOf(slot);
      while (bytes > maxBytes && chunkScan < slots.length) {
        const kind = slots[chunkScan]?.kind;
        if (kind === 'chunk' || kind === 'ring-chunk') drop(chunkScan);
        chunkScan += 1;
      }
      while (items > maxItems && anyScan < slots.length) {
        if (slots[anyScan]) drop(anyScan);
        anyScan += 1;
      }
      // Evicted slots are holes; squeeze them out once they outnumber the kept items.
      if (slots.length > 1_024 && slots.length > 2 * items) {
        slots = slots.filter((s) => s !== null);
        chunkScan = 0;
        anyScan = 0;
      }
    },
    /** Empties the history, returning what it held, oldest first, with chunk bytes of their own. */
    take(): TapItem[] {
      const kept: TapItem[] = [];
      for (const s of slots) {
        if (s === null) continue;
        kept.push(s.kind === 'ring-chunk' ? { kind: 'chunk', stream: s.stream, time: s.time, data: bytesOf(s) } : s);
      }
      slots = [];
      ring = null; // a page that is watched no longer needs it
      items = bytes = chunkScan = anyScan = written = 0;
      return kept;
    },
    evicted: () => evicted,
    size: () => items,
  };
}
