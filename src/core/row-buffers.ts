/**
 * The buffers event tables keep their rows in, reused. A stream's table doubles as its events
 * arrive, and every doubling used to make a new ArrayBuffer: in V8 that costs microseconds each
 * (about 25 µs for a few kilobytes while many are alive, in Node 20 here), and with a table per
 * stream it came to a tenth of the analysis. A table hands back the buffer it outgrew, and the
 * next table to need that size takes it: streams of similar length then make one buffer each.
 */

/** Buffers kept per size: enough for streams that grow side by side. */
const MAX_FREE_PER_SIZE = 4;

export class RowBuffers {
  private readonly free = new Map<number, ArrayBuffer[]>();

  /** A buffer of `bytes`; its contents are whatever it held (tables write a row before reading it). */
  take(bytes: number): ArrayBuffer {
    return this.free.get(bytes)?.pop() ?? new ArrayBuffer(bytes);
  }

  give(buffer: ArrayBuffer): void {
    let list = this.free.get(buffer.byteLength);
    if (!list) this.free.set(buffer.byteLength, (list = []));
    if (list.length < MAX_FREE_PER_SIZE) list.push(buffer);
  }
}
