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
 * Appends are staged in one reused buffer and written when it fills or someone reads: a server
 * that writes an event at a time hands the proxy chunks of a few hundred bytes, and a system call
 * for each would cost more than the forwarding. The analysis worker reads the same descriptor
 * (threads share it), after {@link Spool.flush}, so bytes reach it without a copy through the
 * forwarding thread.
 */
export interface Spool {
  /** The open file, for a reader in another thread of this process (after {@link flush}). */
  readonly fd: number;
  /** Bytes appended so far, staged ones included. */
  readonly size: number;
  /** Bytes in the file: a reader in another thread may read below this. */
  readonly written: number;
  /** Set once a write failed: the bytes from `at` on were not kept (nor are any appended later). */
  readonly failure: { at: number; reason: string } | undefined;
  /** Stages `data` and returns where it starts. Never throws: a failed write sets {@link failure}. */
  append(data: Uint8Array): number;
  /** Writes what is staged, so that the file holds every byte appended (or sets {@link failure}). */
  flush(): void;
  /** The `length` bytes at `at`, in a buffer of their own; throws for bytes not kept (see {@link failure}). */
  read(at: number, length: number): Buffer;
  /** Gives the file back; its bytes are gone. */
  close(): void;
}

/** Bytes staged before they are written; larger appends are written at once. */
export const SPOOL_STAGE_BYTES = 1024 * 1024;

/** Opens a fresh spool in `dir` (the system's temporary folder by default); throws when it cannot. */
export function openSpool(dir = tmpdir()): Spool {
  const folder = mkdtempSync(join(dir, 'mcp-stream-lens-'));
  const path = join(folder, 'recording');
  try {
    return spoolOn(openSync(path, 'wx+', 0o600));
  } finally {
    unlinkSync(path);
    rmdirSync(folder);
  }
}

/** A spool over an open file descriptor, which it then owns, written from offset 0. */
export function spoolOn(fd: number): Spool {
  const stage = new Uint8Array(SPOOL_STAGE_BYTES);
  /** Bytes appended. Until a write fails, the first `written` are in the file and the next `staged` in `stage`. */
  let size = 0;
  let written = 0;
  let staged = 0;
  let failure: Spool['failure'];

  const write = (data: Uint8Array, length: number) => {
    try {
      for (let done = 0; done < length; ) done += writeSync(fd, data, done, length - done, written + done);
      written += length;
    } catch (error) {
      failure = { at: written, reason: (error as NodeJS.ErrnoException).code ?? String(error) };
    }
  };
  const flush = () => {
    if (staged === 0 || failure) return;
    write(stage, staged);
    staged = 0;
  };

  return {
    fd,
    get size() {
      return size;
    },
    get written() {
      return written;
    },
    get failure() {
      return failure;
    },
    append(data) {
      // After a failure nothing more is kept, but places still advance: each chunk keeps its own.
      const at = size;
      size += data.length;
      if (!failure && staged + data.length > stage.length) flush();
      if (failure) return at;
      if (data.length > stage.length) write(data, data.length);
      else {
        stage.set(data, staged);
        staged += data.length;
      }
      return at;
    },
    flush,
    read(at, length) {
      if (at + length > written) flush();
      if (failure && at + length > failure.at) throw new Error(`the recording file lost the bytes from ${failure.at} on (${failure.reason})`);
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
