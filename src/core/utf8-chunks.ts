/**
 * Decodes a body's chunks as one UTF-8 stream, and says when positions in a chunk's text are
 * positions in its bytes (see TextStore.borrow).
 *
 * A streaming `TextDecoder` is needed only where a character is cut between chunks, and it is
 * slow: over bench/traffic.ts's 100 MB, 83 ms in Node against 17 ms for one-shot decodes. So a
 * chunk that starts and ends on a character boundary, as nearly every chunk of ASCII JSON does, is
 * decoded in one shot, and the streaming decoder takes the rest.
 */
export class Utf8Chunks {
  private readonly streaming = new TextDecoder('utf-8');
  // Keeps U+FEFF: only the stream's first chunk may start with a BOM to strip, and that chunk
  // always goes to the streaming decoder.
  private readonly whole = new TextDecoder('utf-8', { ignoreBOM: true });
  private started = false;
  /** The previous chunk's last byte: below 0x80, no character was cut after it. */
  private lastByte = 0;
  /** Whether each character of the last text took one byte (so positions agree). */
  aligned = false;

  decode(bytes: Uint8Array): string {
    const last = bytes.length > 0 ? bytes[bytes.length - 1]! : this.lastByte;
    const whole = this.started && this.lastByte < 0x80 && last < 0x80;
    const text = whole ? this.whole.decode(bytes) : this.streaming.decode(bytes, { stream: true });
    // Equal lengths mean one character per byte: a multi-byte character is fewer, an invalid byte
    // one U+FFFD. A chunk after a cut character does not line up, whatever its length.
    this.aligned = this.lastByte < 0x80 && text.length === bytes.length;
    this.lastByte = last;
    if (bytes.length > 0) this.started = true;
    return text;
  }

  /** The end of the stream: a character cut short becomes U+FFFD. */
  end(): string {
    return this.streaming.decode();
  }
}
