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
  /** Entry number + 1 per slot; 0 is empty. */
  private slots = new Int32Array(INITIAL_SLOTS);
  private hashes = new Int32Array(INITIAL_SLOTS);
  private streams = new Int32Array(INITIAL_SLOTS / 2);
  private events = new Int32Array(INITIAL_SLOTS / 2);
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
    return entry < 0 ? undefined : { stream: this.streams[entry]!, event: this.events[entry]! };
  }

  has(id: string): boolean {
    return this.find(id, this.hash(id)) >= 0;
  }

  /** Records `id`'s first delivery; returns the earlier one instead when there was one. */
  add(id: string, stream: number, event: number): Delivery | undefined {
    const hash = this.hash(id);
    const entry = this.find(id, hash);
    if (entry >= 0) return { stream: this.streams[entry]!, event: this.events[entry]! };
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    if (this.size === this.streams.length) {
      this.streams = widen(this.streams);
      this.events = widen(this.events);
    }
    const n = this.size++;
    this.streams[n] = stream;
    this.events[n] = event;
    this.place(hash, n + 1);
    return undefined;
  }

  /** The entry number of `id`, or -1. */
  private find(id: string, hash: number): number {
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot]!;
      if (stored === 0) return -1;
      const entry = stored - 1;
      if (hashes[slot] === hash && this.idAt(this.streams[entry]!, this.events[entry]!) === id) return entry;
    }
  }

  private place(hash: number, stored: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = stored;
    this.hashes[slot] = hash;
  }

  private grow(): void {
    const { slots, hashes } = this;
    this.slots = new Int32Array(slots.length * 2);
    this.hashes = new Int32Array(slots.length * 2);
    for (let slot = 0; slot < slots.length; slot++) if (slots[slot] !== 0) this.place(hashes[slot]!, slots[slot]!);
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
