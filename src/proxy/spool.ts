import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the recording keeps the body bytes it records: an append-only file with no name.
 *
 * Kept in the process's own memory, every recorded byte would be memory the process touches for
 * the first time, and on a virtual machine a first touch of a page costs far more than copying
 * into it: the forwarding thread paid that for each chunk. A file's bytes live in the kernel's
 * page cache instead, which the kernel recycles, and the process's memory stays flat however
 * much is recorded. The file is unlinked as soon as it is open, so nothing is left on disk when
 * the proxy ends, however it ends, and no other user can open it (mode 0600 while it had a name).
 *
 * The analysis worker reads the same descriptor (threads share it), so bytes cross to it without
 * a copy through the forwarding thread.
 */
export interface Spool {
  /** The open file, for a reader in another thread of this process. */
  readonly fd: number;
  /** Bytes appended so far. */
  readonly size: number;
  /** Appends `data` and returns where it starts; throws what the file system said (a full disk). */
  append(data: Uint8Array): number;
  /** The `length` bytes at `at`, in a buffer of their own. */
  read(at: number, length: number): Buffer;
  /** Gives the file back; its bytes are gone (later calls throw). */
  close(): void;
}

/** Opens a fresh spool in `dir` (the system's temporary folder by default). */
export function openSpool(dir = tmpdir()): Spool {
  const folder = mkdtempSync(join(dir, 'mcp-stream-lens-'));
  const path = join(folder, 'recording');
  try {
    const fd = openSync(path, 'wx+', 0o600);
    return spoolOn(fd);
  } finally {
    unlinkSync(path);
    rmdirSync(folder);
  }
}

/** A spool over an open file descriptor it then owns, written from its current end. */
export function spoolOn(fd: number): Spool {
  let size = 0;
  return {
    fd,
    get size() {
      return size;
    },
    append(data) {
      const at = size;
      for (let done = 0; done < data.length; ) done += writeSync(fd, data, done, data.length - done, at + done);
      size += data.length;
      return at;
    },
    read(at, length) {
      const bytes = Buffer.allocUnsafe(length);
      readInto(fd, bytes, at, length);
      return bytes;
    },
    close: () => closeSync(fd),
  };
}

/** Reads `length` bytes at `at` of `fd` into the start of `into`; throws when the file ends first. */
export function readInto(fd: number, into: Uint8Array, at: number, length: number): void {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, into, done, length - done, at + done);
    if (n === 0) throw new Error(`the recording file ended at ${at + done} of ${at + length}`);
    done += n;
  }
}
