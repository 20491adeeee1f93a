/**
 * Where each SSE event id of a session was first delivered: the duplicate-id and resume rules ask
 * it once per event, for every event of sessions that run for hours.
 *
 * It stores no strings (a `Map` of ids makes the garbage collector revisit every long-lived id
 * string on each full collection): only 32-bit hashes of the ids, each with the stream and event
 * that delivered it. The id text is read back from the stream's own event column
 * only to confirm a hash match.
 *
 * Nor does it keep one big hash table. Such a table outgrows the caches, every insert then reads a
 * random slot of it, and the table and its doublings take fresh memory, whose first touch (a page
 * fault per page) costs more than its use. Instead:
 *
 * - A Bloom filter of every hash, at 12 to 24 bits per id, answers most inserts ("never seen") by
 *   itself. It is small enough to stay near the cache.
 * - The exact record is a log-structured merge: the newest ids unsorted in a short tail, the rest
 *   in a few runs sorted by hash. Two runs of one size merge into one, sequentially, up to a
 *   largest size, so each id is copied at most log₂(MAX_RUN_IDS ÷ TAIL) times; a merged run's
 *   buffers are reused by the next merge.
 *
 * Only a "maybe" from the filter (a false positive, rare at these bits per id, or a real repeat) or
 * a lookup by id searches the record: the tail by a scan, each run by binary search.
 *
 * Its plain twin is a `Map` (store/plain.ts): id-index.test.ts compares the two on random ids,
 * repeats and streams, and `npm run bench:store` measures what the packing buys.
 */

/** A place an id was delivered at. */
export interface Delivery {
  stream: number;
  event: number;
}

/**
 * Where each id of a session was first delivered. {@link IdIndex} is the packed one; the plain
 * twin, a `Map` (store/plain.ts), gives the same answers.
 */
export interface IdRecord {
  readonly size: number;
  /** Where `id` was first delivered, or undefined. */
  get(id: string): Delivery | undefined;
  has(id: string): boolean;
  /**
   * Records `id`'s first delivery; returns the earlier one instead when there was one. `id` may
   * be named where it stands in a larger `text` (from `start`), which the packed index hashes in
   * place.
   */
  add(id: string, stream: number, event: number, text?: string, start?: number): Delivery | undefined;
}

/** Reads back the id of a delivery, to confirm a hash match. */
export type IdAt = (stream: number, event: number) => string | undefined;

/** Ids kept unsorted before they become a run (a power of two): few enough that a scan is cheap. */
const TAIL = 1024;
/**
 * Runs stop merging at this many ids (TAIL × a power of two). Merging runs without end would
 * keep, at a merge, the two runs and their merged copy, and spares of every smaller size: about
 * three times the record. Runs of this size pile up instead; a lookup binary-searches each, and
 * only a "maybe" from the filter looks up at all.
 */
const MAX_RUN_IDS = TAIL * 1024;
/** Filter bits per id at its fullest; the filter doubles before it holds more ids. */
const FILTER_BITS_PER_ID = 12;
const FIRST_FILTER_IDS = 1024;
/** A sorted run: (hash, entry number) pairs, by unsigned hash; it holds TAIL × 2^k pairs. */
type Run = Uint32Array<ArrayBuffer>;

export class IdIndex implements IdRecord {
  size = 0;
  /**
   * Who delivered each entry (entries are numbered in delivery order, and runs point at them), as
   * segments: a segment is a stretch of entries that one stream delivered as consecutive events,
   * three Int32s (first entry, stream, first event). A stream's events mostly come one after
   * another, so a segment stands for hundreds of entries; entries of interleaved streams cost a
   * segment each.
   */
  private segments = new Int32Array(3 * 16);
  private segmentCount = 0;
  /** The hashes of the entries since the last run was made, in delivery order. */
  private readonly tail = new Uint32Array(TAIL);
  private tailLength = 0;
  /** Sorted runs, longest first; each longer than the next, but for runs of MAX_RUN_IDS. */
  private readonly runs: Run[] = [];
  /**
   * Spare buffers by run length (k): the two runs each merge consumes, for the next runs of their
   * length, so a long session touches fresh memory for about three times its record, not for
   * every copy of every id.
   */
  private readonly spares: Run[][] = [];
  private filter = new Int32Array(filterWords(FIRST_FILTER_IDS));
  private filterIds = FIRST_FILTER_IDS;
  /**
   * Per index, so ids cannot be chosen in advance to collide: they come from the page and the
   * server, and a flood of equal hashes would make every insert search the record.
   */
  private readonly seed = (Math.random() * 0x7fffffff) | 0;
  /**
   * Scratch for sorting a tail: where each bucket starts in the run being made, and how many of
   * its ids are placed. Made at the first sort: most sessions never fill a tail.
   */
  private buckets: { starts: Uint32Array; fill: Uint32Array } | undefined;

  constructor(private readonly idAt: IdAt) {}

  /** Where `id` was first delivered, or undefined. */
  get(id: string): Delivery | undefined {
    const hash = this.hash(id, 0, id.length);
    return this.mayHold(hash) ? this.find(id, hash) : undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /**
   * Records `id`'s first delivery; returns the earlier one instead when there was one. `id` may
   * be named where it stands in a larger `text` (from `start`): hashing a string a regex cut out
   * of a chunk reads every character through the slice's indirection.
   */
  add(id: string, stream: number, event: number, text = id, start = 0): Delivery | undefined {
    const hash = this.hash(text, start, id.length);
    if (this.mayHold(hash)) {
      const first = this.find(id, hash);
      if (first) return first;
    }
    const n = this.size++;
    this.deliver(n, stream, event);
    this.tail[this.tailLength++] = hash;
    if (this.size > this.filterIds) this.growFilter();
    else this.remember(hash);
    if (this.tailLength === TAIL) this.sortTail();
    return undefined;
  }

  /** The first delivery of `id`: the tail by a scan, then each run by binary search. */
  private find(id: string, hash: number): Delivery | undefined {
    const { tail } = this;
    const first = this.size - this.tailLength;
    for (let i = 0; i < this.tailLength; i++) if (tail[i] === hash && this.is(first + i, id)) return this.delivery(first + i);
    for (const run of this.runs) {
      // The first pair whose hash is not below `hash`; equal hashes sit side by side after it.
      let low = 0;
      let high = run.length >> 1;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (run[mid * 2]! < hash) low = mid + 1;
        else high = mid;
      }
      for (let at = low * 2; at < run.length && run[at] === hash; at += 2) if (this.is(run[at + 1]!, id)) return this.delivery(run[at + 1]!);
    }
    return undefined;
  }

  private is(entry: number, id: string): boolean {
    const delivery = this.delivery(entry);
    return this.idAt(delivery.stream, delivery.event) === id;
  }

  private delivery(entry: number): Delivery {
    // The last segment that starts at or before `entry`, by binary search.
    const { segments } = this;
    let low = 0;
    let high = this.segmentCount - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (segments[mid * 3]! <= entry) low = mid;
      else high = mid - 1;
    }
    return { stream: segments[low * 3 + 1]!, event: segments[low * 3 + 2]! + entry - segments[low * 3]! };
  }

  /** Records that entry `n` (the next) was delivered by `event` of `stream`. */
  private deliver(n: number, stream: number, event: number): void {
    const last = (this.segmentCount - 1) * 3;
    const { segments } = this;
    if (last >= 0 && segments[last + 1] === stream && segments[last + 2]! + n - segments[last]! === event) return;
    if (last + 3 === segments.length) this.segments = widen(segments);
    this.segments[last + 3] = n;
    this.segments[last + 4] = stream;
    this.segments[last + 5] = event;
    this.segmentCount++;
  }


  /**
   * The tail becomes a run, sorted by hash; runs of one length then merge, as a binary counter
   * carries. Hashes are uniform, so a bucket per TAIL-th of the hash range holds about one id: one
   * counting pass finds where each bucket starts, and an insertion sort orders the few in one.
   */
  private sortTail(): void {
    const { tail } = this;
    const { starts: bucketStarts, fill: bucketFill } = (this.buckets ??= { starts: new Uint32Array(TAIL + 1), fill: new Uint32Array(TAIL) });
    const first = this.size - TAIL;
    bucketStarts.fill(0);
    for (let i = 0; i < TAIL; i++) bucketStarts[(tail[i]! >>> BUCKET_SHIFT) + 1]!++;
    for (let bucket = 1; bucket <= TAIL; bucket++) bucketStarts[bucket] = bucketStarts[bucket]! + bucketStarts[bucket - 1]!;
    let run = this.buffer(0);
    for (let i = 0; i < TAIL; i++) {
      const hash = tail[i]!;
      const bucket = hash >>> BUCKET_SHIFT;
      const start = bucketStarts[bucket]! * 2;
      let at = start + bucketFill[bucket]!++ * 2;
      // Larger hashes of the same bucket move up one place.
      for (; at > start && run[at - 2]! > hash; at -= 2) {
        run[at] = run[at - 2]!;
        run[at + 1] = run[at - 1]!;
      }
      run[at] = hash;
      run[at + 1] = first + i;
    }
    bucketFill.fill(0);
    this.tailLength = 0;
    for (let k = 0; run.length < MAX_RUN_IDS * 2 && this.runs.length > 0 && this.runs[this.runs.length - 1]!.length === run.length; k++) {
      const older = this.runs.pop()!;
      const merged = merge(older, run, this.buffer(k + 1));
      (this.spares[k] ??= []).push(older, run);
      run = merged;
    }
    this.runs.push(run);
  }

  /** A buffer for a run of TAIL × 2^k ids: the spare one, or a new one. */
  private buffer(k: number): Run {
    return this.spares[k]?.pop() ?? new Uint32Array(TAIL * 2 * 2 ** k);
  }

  /** Whether the filter may hold `hash`: false means no id with this hash was added. */
  private mayHold(hash: number): boolean {
    const { filter } = this;
    const block = (hash & ((filter.length >> 1) - 1)) * 2;
    const bits = Math.imul(hash, 0x9e3779b1);
    return hasBit(filter, block, bits >>> 26) && hasBit(filter, block, (bits >>> 20) & 63) && hasBit(filter, block, (bits >>> 14) & 63) && hasBit(filter, block, (bits >>> 8) & 63);
  }

  /**
   * Sets `hash`'s four bits, all in one 64-bit block: one cache line per id. Its block comes from
   * the hash's low bits and its bits from the high bits of a second mix, so the two are unrelated.
   */
  private remember(hash: number): void {
    const { filter } = this;
    const block = (hash & ((filter.length >> 1) - 1)) * 2;
    const bits = Math.imul(hash, 0x9e3779b1);
    setBit(filter, block, bits >>> 26);
    setBit(filter, block, (bits >>> 20) & 63);
    setBit(filter, block, (bits >>> 14) & 63);
    setBit(filter, block, (bits >>> 8) & 63);
  }

  /** A filter for twice the ids, refilled from the record: a sequential read, once per doubling. */
  private growFilter(): void {
    this.filterIds *= 2;
    this.filter = new Int32Array(filterWords(this.filterIds));
    for (const run of this.runs) for (let at = 0; at < run.length; at += 2) this.remember(run[at]!);
    for (let i = 0; i < this.tailLength; i++) this.remember(this.tail[i]!);
  }

  /**
   * A seeded multiply-xorshift hash of the UTF-16 code units of `text` from `start`, `length`
   * long, with a final avalanche; unsigned.
   */
  private hash(text: string, start: number, length: number): number {
    let h = this.seed ^ length;
    for (let i = start; i < start + length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }
}

/** A tail's buckets: TAIL of them, by the hash's top bits. */
const BUCKET_SHIFT = 32 - Math.log2(TAIL);

/** Words for a filter of `ids` at FILTER_BITS_PER_ID: a power of two, for the block mask. */
function filterWords(ids: number): number {
  let words = 2;
  while (words * 32 < ids * FILTER_BITS_PER_ID) words *= 2;
  return words;
}

function hasBit(filter: Int32Array, block: number, bit: number): boolean {
  return (filter[block + (bit >> 5)]! & (1 << (bit & 31))) !== 0;
}

function setBit(filter: Int32Array, block: number, bit: number): void {
  const word = block + (bit >> 5);
  filter[word] = filter[word]! | (1 << (bit & 31));
}

/** Two sorted runs into `out`, which holds both; on equal hashes the older run's id goes first. */
function merge(older: Run, newer: Run, out: Run): Run {
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < older.length && j < newer.length) {
    if (older[i]! <= newer[j]!) {
      out[k++] = older[i++]!;
      out[k++] = older[i++]!;
    } else {
      out[k++] = newer[j++]!;
      out[k++] = newer[j++]!;
    }
  }
  out.set(older.subarray(i), k);
  out.set(newer.subarray(j), k + older.length - i);
  return out;
}

function widen(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const wider = new Int32Array(array.length * 2);
  wider.set(array);
  return wider;
}
