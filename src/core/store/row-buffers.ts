/**
 * The memory event tables keep their rows in. A stream's table doubles as its events arrive, and
 * with a table per stream a session makes thousands of them. An ArrayBuffer each cost about a
 * twentieth of the analysis: V8 makes every one through the embedder's allocator and tracks it as
 * external memory, and an ArrayBuffer of a few kilobytes costs microseconds to make. So small
 * tables take regions of shared slabs instead, and a table hands back the region it outgrew for
 * the next table that needs that size: streams of similar length then reuse each other's rows.
 */

/** A table's rows: `bytes` of `buffer` from `offset`, a multiple of 8 (Float64Array alignment). */
export interface RowRegion {
  buffer: ArrayBuffer;
  offset: number;
  bytes: number;
}

/** One slab: many tables' rows. */
const SLAB_BYTES = 1024 * 1024;
/**
 * Larger regions get a buffer of their own: they are few, and a slab's unusable end is then at
 * most this much.
 */
const MAX_SLAB_REGION = SLAB_BYTES / 8;

export class RowBuffers {
  private slab = new ArrayBuffer(0);
  private used = 0;
  /**
   * Regions tables outgrew, by size, for the next table that needs that size: a region cannot be
   * freed on its own while its slab lives.
   */
  private readonly free = new Map<number, RowRegion[]>();

  /** A region of `bytes` (a multiple of 8); its contents are whatever it held (tables write a row before reading it). */
  take(bytes: number): RowRegion {
    const reused = this.free.get(bytes)?.pop();
    if (reused) return reused;
    if (bytes > MAX_SLAB_REGION) return { buffer: new ArrayBuffer(bytes), offset: 0, bytes };
    if (this.used + bytes > this.slab.byteLength) {
      this.slab = new ArrayBuffer(SLAB_BYTES);
      this.used = 0;
    }
    const region = { buffer: this.slab, offset: this.used, bytes };
    this.used += bytes;
    return region;
  }

  give(region: RowRegion): void {
    // A buffer of its own is left to the collector: a long stream outgrows a few large ones once.
    if (region.bytes > MAX_SLAB_REGION) return;
    let list = this.free.get(region.bytes);
    if (!list) this.free.set(region.bytes, (list = []));
    list.push(region);
  }
}
