/**
 * The text of every event a session keeps (`data` and `id`), stored as UTF-8 in a few large byte
 * blocks instead of as millions of small strings. Strings live on the JS heap, where every young
 * collection copies the new ones and every full one walks them all. Bytes in an ArrayBuffer are
 * never moved or walked. A
 * text is decoded again only when someone reads it: the event a user opens, an id a resume names.
 * One store serves every stream of an analysis.
 *
 * A body chunk can also be kept as it came ({@link TextStore.borrow}): events that a block template
 * read from it (see block-template.ts) are then positions in it, with no copy at all. The chunk's
 * bytes are the raw bytes the capture holds anyway.
 */

/** First block: a short capture (one tool call) holds a few kilobytes. */
const FIRST_BLOCK_BYTES = 16 * 1024;
/** Blocks double up to this size: at most one partly filled block is spare room. */
const MAX_BLOCK_BYTES = 1024 * 1024;
/** Positions are 32-bit: past this, texts are kept as strings and chunks are not borrowed. */
const MAX_POSITION = 2 ** 31 - 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `String.prototype.isWellFormed` (ES2024), which every supported runtime has. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * What positions point into: our own blocks, and borrowed chunks. A position counts bytes in a
 * byte source and UTF-16 code units in a string.
 */
type Source = Uint8Array | string;

export class TextStore {
  private sources: Source[] = [];
  /** Where each source starts; sources never overlap, and are in position order. */
  private starts: number[] = [];
  private block = new Uint8Array(0);
  private blockStart = 0;
  private used = 0;
  /** The first position no source has taken. */
  private next = 0;
  private lastBorrowed: Source | undefined;
  private lastBorrowedAt = -1;

  /**
   * Stores `text` and returns its position, or -1 when it must stay a string: UTF-8 cannot hold
   * a lone surrogate (a HAR's text may have one), and positions are 32-bit.
   */
  add(text: string): number {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4).
    const most = text.length * 3;
    if (!isWellFormed(text) || (this.block.length - this.used < most && !this.open(most))) return -1;
    const at = this.blockStart + this.used;
    this.used += encoder.encodeInto(text, this.block.subarray(this.used)).written;
    return at;
  }

  /** Where the text `add` just stored ends. */
  get size(): number {
    return this.blockStart + this.used;
  }

  /**
   * Keeps `chunk` itself and returns the position of its start, or -1 when positions ran out;
   * the chunk borrowed last gives its position again. The caller must not change the chunk
   * afterwards.
   */
  borrow(chunk: Source): number {
    // A chunk's blocks are read one after another, each asking for the same chunk. (Two equal
    // strings compare equal here, and positions in either give the same text.)
    if (chunk === this.lastBorrowed) return this.lastBorrowedAt;
    this.lastBorrowed = chunk;
    this.lastBorrowedAt = this.next + chunk.length > MAX_POSITION ? -1 : this.place(chunk);
    return this.lastBorrowedAt;
  }

  /** The text at `at`, `length` units long (bytes in a block or byte chunk, code units in a string). */
  text(at: number, length: number): string {
    // An empty text may be "stored" before any source exists.
    if (length === 0) return '';
    // The source that starts at or before `at`, by binary search: a long session borrows
    // thousands of chunks, but reads are rare.
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= at) low = mid;
      else high = mid - 1;
    }
    const source = this.sources[low]!;
    const offset = at - this.starts[low]!;
    return typeof source === 'string' ? source.slice(offset, offset + length) : decoder.decode(source.subarray(offset, offset + length));
  }

  private place(source: Source): number {
    const at = this.next;
    this.sources.push(source);
    this.starts.push(at);
    this.next += source.length;
    return at;
  }

  // A full block keeps its unused tail: less than 3 bytes per character of the text that did not
  // fit. One store serves every stream of an analysis, so blocks fill whatever the streams' sizes.
  private open(most: number): boolean {
    const size = Math.max(most, Math.min(MAX_BLOCK_BYTES, Math.max(FIRST_BLOCK_BYTES, this.block.length * 2)));
    if (this.next + size > MAX_POSITION) return false;
    this.block = new Uint8Array(size);
    this.used = 0;
    this.blockStart = this.place(this.block);
    return true;
  }
}
