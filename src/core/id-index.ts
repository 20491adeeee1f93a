/**
 * Where each SSE event id of a session was first delivered: the duplicate-id and resume rules ask
 * it once per event, for every event of sessions that run for hours.
 *
 * A `Map<string, …>` did this at about a fifth of all ingest time. Each entry stored a fresh string
 * in a long-lived table, and the garbage collector then revisits every such slot. This index
 * stores no strings: an open-addressing table of 32-bit hashes over typed arrays, whose entries
 * point at the event itself. The id text is read back from the stream's own event column only to
 * confirm a hash match.
 */

/** A place an id was delivered at. */
export interface Delivery {
  stream: number;
  event: number;
}

/** Reads back the id of a delivery, to confirm a hash match. */
export type IdAt = (stream: number, event: number) => string | undefined;

const INITIAL_SLOTS = 256;

export class IdIndex {
  /**
   * Two Int32s per slot: the entry number + 1 (0 is empty), then the id's hash. Side by side, a
   * probe reads one cache line: a session's index outgrows the caches, and a probe that read two
   * arrays cost two misses.
   */
  private table = new Int32Array(INITIAL_SLOTS * 2);
  /** Two Int32s per entry: the stream and the event that first delivered the id. */
  private entries = new Int32Array(INITIAL_SLOTS);
  size = 0;
  /**
   * Per index, so ids cannot be chosen in advance to collide: they come from the page and the
   * server, and a flood of equal hashes would turn every lookup into a scan.
   */
  private readonly seed = (Math.random() * 0x7fffffff) | 0;

  constructor(private readonly idAt: IdAt) {}

  /** Where `id` was first delivered, or undefined. */
  get(id: string): Delivery | undefined {
    const entry = this.find(id, this.hash(id));
    return entry < 0 ? undefined : this.delivery(entry);
  }

  has(id: string): boolean {
    return this.find(id, this.hash(id)) >= 0;
  }

  /** Records `id`'s first delivery; returns the earlier one instead when there was one. */
  add(id: string, stream: number, event: number): Delivery | undefined {
    const hash = this.hash(id);
    const entry = this.find(id, hash);
    if (entry >= 0) return this.delivery(entry);
    // Slots stay at most half full, so probe runs stay short.
    if ((this.size + 1) * 4 > this.table.length) this.grow();
    if (this.size * 2 === this.entries.length) this.entries = widen(this.entries);
    const n = this.size++;
    this.entries[n * 2] = stream;
    this.entries[n * 2 + 1] = event;
    this.place(this.table, hash, n + 1);
    return undefined;
  }

  private delivery(entry: number): Delivery {
    return { stream: this.entries[entry * 2]!, event: this.entries[entry * 2 + 1]! };
  }

  /** The entry number of `id`, or -1. */
  private find(id: string, hash: number): number {
    const { table, entries } = this;
    const mask = (table.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = table[slot * 2]!;
      if (stored === 0) return -1;
      const entry = stored - 1;
      if (table[slot * 2 + 1] === hash && this.idAt(entries[entry * 2]!, entries[entry * 2 + 1]!) === id) return entry;
    }
  }

  private place(table: Int32Array, hash: number, stored: number): void {
    const mask = (table.length >> 1) - 1;
    let slot = hash & mask;
    while (table[slot * 2] !== 0) slot = (slot + 1) & mask;
    table[slot * 2] = stored;
    table[slot * 2 + 1] = hash;
  }

  private grow(): void {
    const old = this.table;
    const table = new Int32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.place(table, old[i + 1]!, old[i]!);
    this.table = table;
  }

  /** A seeded multiply-xorshift hash of the UTF-16 code units, with a final avalanche. */
  private hash(id: string): number {
    let h = this.seed ^ id.length;
    for (let i = 0; i < id.length; i++) {
      h = Math.imul(h ^ id.charCodeAt(i), 0x5bd1e995);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return h ^ (h >>> 16);
  }
}

function widen(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const wider = new Int32Array(array.length * 2);
  wider.set(array);
  return wider;
}
