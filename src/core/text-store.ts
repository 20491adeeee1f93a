/**
 * The text of every event a session keeps (`data` and `id`), stored as UTF-8 in a few large byte
 * blocks instead of as millions of small strings. Strings live on the JS heap, where every young
 * collection copies the new ones and every full one walks them all: over bench/traffic.ts's 100 MB
 * that was a quarter of the analysis time. Bytes in an ArrayBuffer are never moved or walked. A
 * text is decoded again only when someone reads it: the event a user opens, an id a resume names.
 * One store serves every stream of an analysis.
 */

/** First block: a short capture (one tool call) holds a few kilobytes. */
const FIRST_BLOCK_BYTES = 16 * 1024;
/** Blocks double up to this size: at most one partly filled block is spare room. */
const MAX_BLOCK_BYTES = 1024 * 1024;
/** Positions are 32-bit: past this many bytes, texts are kept as strings. */
const MAX_STORE_BYTES = 2 ** 31 - 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `String.prototype.isWellFormed` (ES2024), which every supported runtime has. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

export class TextStore {
  private blocks: Uint8Array[] = [];
  /** Where each block starts, in bytes since the first. */
  private starts: number[] = [];
  private block = new Uint8Array(0);
  private used = 0;
  /** Bytes in blocks before the current one. */
  private base = 0;

  /**
   * Stores `text` and returns its position, or -1 when it must stay a string: UTF-8 cannot hold
   * a lone surrogate (a HAR's text may have one), and positions are 32-bit.
   */
  add(text: string): number {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4).
    const most = text.length * 3;
    if (this.base + this.used + most > MAX_STORE_BYTES || !isWellFormed(text)) return -1;
    if (this.block.length - this.used < most) this.open(most);
    const at = this.base + this.used;
    this.used += encoder.encodeInto(text, this.block.subarray(this.used)).written;
    return at;
  }

  /** Bytes stored so far: the text `add` just stored ends here. */
  get size(): number {
    return this.base + this.used;
  }

  text(at: number, bytes: number): string {
    // An empty text may be "stored" before any block exists.
    if (bytes === 0) return '';
    // The block that starts at or before `at`: blocks are few, and reads are rare.
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= at) low = mid;
      else high = mid - 1;
    }
    const offset = at - this.starts[low]!;
    return decoder.decode(this.blocks[low]!.subarray(offset, offset + bytes));
  }

  // A full block keeps its unused tail: less than 3 bytes per character of the text that did not
  // fit. One store serves every stream of an analysis, so blocks fill whatever the streams' sizes.
  private open(most: number): void {
    const size = Math.max(most, Math.min(MAX_BLOCK_BYTES, Math.max(FIRST_BLOCK_BYTES, this.block.length * 2)));
    this.base += this.used;
    this.block = new Uint8Array(size);
    this.used = 0;
    this.blocks.push(this.block);
    this.starts.push(this.base);
  }
}
