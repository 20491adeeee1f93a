/** What one read of a target's connection takes at most. */
export const READ_BUFFER_BYTES = 64 * 1024;
/** Free read buffers kept for reuse, across all connections. */
export const MAX_FREE_READ_BUFFERS = 64;

const free: Buffer[] = [];

/**
 * Read buffers for one connection read through `net`'s `onread`: each read lands in a buffer
 * that an earlier read used, once nothing holds that one any more.
 *
 * Why: Node reads a socket into a fresh buffer each time, and on a virtual machine the first
 * touch of fresh memory costs more than the rest of the forwarding. A buffer is held while a
 * write of its bytes is pending (the client's socket keeps it until the kernel took them); a
 * buffer whose write never calls back (the client went away) is just never reused.
 */
export interface ReadBuffers {
  /** The buffer for the next read (`onread.buffer`, called again after every read). */
  next(): Buffer;
  /** Holds `buf` until the returned release is called (a pending write's callback). */
  hold(buf: Buffer): () => void;
  /** The read into `buf` is handled: it may be reused once no hold is left. */
  done(buf: Buffer): void;
  /** The connection is closed: the buffer it had ready for its next read is free too. */
  close(): void;
}

export function createReadBuffers(): ReadBuffers {
  /** Buffers read into and not yet given back: their pending writes, and whether their read is handled. */
  const lent = new Map<Buffer, { holds: number; handled: boolean }>();
  const settle = (buf: Buffer) => {
    const state = lent.get(buf);
    if (!state || state.holds > 0 || !state.handled) return;
    lent.delete(buf);
    if (free.length < MAX_FREE_READ_BUFFERS) free.push(buf);
  };
  return {
    next() {
      const buf = free.pop() ?? Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
      lent.set(buf, { holds: 0, handled: false });
      return buf;
    },
    hold(buf) {
      const state = lent.get(buf);
      if (!state) return () => undefined;
      state.holds += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        state.holds -= 1;
        settle(buf);
      };
    },
    done(buf) {
      const state = lent.get(buf);
      if (!state) return;
      state.handled = true;
      settle(buf);
    },
    close() {
      for (const [buf, state] of lent) {
        state.handled = true;
        settle(buf);
      }
    },
  };
}
