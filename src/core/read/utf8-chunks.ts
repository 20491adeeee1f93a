/**
 * Decodes a body's chunks as one UTF-8 stream, and says when positions in a chunk's text are
 * positions in its bytes (see TextStore.borrow).
 *
 * A streaming `TextDecoder` is needed only where a character is cut between chunks, and it is
 * several times slower than a one-shot decode (it keeps state and copies through it). So a
 * chunk that starts and ends on a character boundary, as nearly every chunk of ASCII JSON does, is
 * decoded in one shot, and the streaming decoder takes the rest.
 */
/** One-shot decodes hold no state between calls, so every stream shares one decoder. */
// It keeps U+FEFF: a BOM is stripped only at a stream's start, and a chunk there that may hold
// one goes to the stream's own decoder.
const whole = new TextDecoder('utf-8', { ignoreBOM: true });

export class Utf8Chunks {
  /** Made on first need: most streams never cut a character, and making one is not free. */
  private streaming: TextDecoder | undefined;
  private started = false;
  /** The previous chunk's last byte: below 0x80, no character was cut after it. */
  private lastByte = 0;
  /** Whether each character of the last text took one byte (so positions agree). */
  aligned = false;

  decode(bytes: Uint8Array): string {
    const last = bytes.length > 0 ? bytes[bytes.length - 1]! : this.lastByte;
    // 0xEF starts the UTF-8 BOM, which only the streaming decoder strips (at the start).
    const clean = (this.started || bytes[0] !== 0xef) && this.lastByte < 0x80 && last < 0x80;
    // Made mid-stream, the streaming decoder must not take a U+FEFF there for the stream's BOM.
    const text = clean ? whole.decode(bytes) : (this.streaming ??= new TextDecoder('utf-8', { ignoreBOM: this.started })).decode(bytes, { stream: true });
    // Equal lengths mean one character per byte: a multi-byte character is fewer, an invalid byte
    // one U+FFFD. A chunk after a cut character does not line up, whatever its length.
    this.aligned = this.lastByte < 0x80 && text.length === bytes.length;
    this.lastByte = last;
    if (bytes.length > 0) this.started = true;
    return text;
  }

  /** The end of the stream: a character cut short becomes U+FFFD. */
  end(): string {
    return this.streaming?.decode() ?? '';
  }
}
