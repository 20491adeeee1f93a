import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createHarStreamReader, type Exchange, type HarStreamResult } from '../core';

/** Standard input, as `-` names it on the command line. */
export const STDIN = '-';

/**
 * Reads of this size are what the reader scans in one go (it gathers smaller ones): fewer,
 * larger reads cost the system less per byte.
 */
const READ_BYTES = 1024 * 1024;

/** How far a read is: bytes read of the file's size. */
export type Progress = (read: number, total: number) => void;

/** Standard input's bytes as they arrive (the process's, or a test's). */
export type Stdin = () => AsyncIterable<Uint8Array>;

export interface HarFileOptions {
  /** Given the file's size, may return where to report bytes read (standard input has no size). */
  onProgress?: (size: number) => Progress | undefined;
  /** Where `-` reads from. */
  stdin: Stdin;
  /** Sees every chunk as it is read (the SARIF format finds each entry's line in them). */
  onBytes?: (chunk: Uint8Array) => void;
  /** While the exchanges' consumer is behind, a promise of when it has caught up: reading waits for it. */
  backlog?: () => Promise<void> | undefined;
  /** Given the file's size (undefined for standard input), before anything is read. */
  onSize?: (size: number | undefined) => void;
}

/**
 * Reads one input (a path, or `-` for standard input) as a HAR, entry by entry, and hands each
 * exchange to `onExchange`: the file is never one string, so its size is bounded only by the
 * machine. Bodies Playwright stored beside the HAR (`content._file`) are read from there. The
 * only place the CLI reads a HAR.
 */
export async function readHarFile(path: string, onExchange: (exchange: Exchange) => void, options: HarFileOptions): Promise<HarStreamResult> {
  // Standard input has no folder beside it: bodies attached in files cannot be found.
  if (path === STDIN) {
    options.onSize?.(undefined);
    return readAll(options.stdin(), createHarStreamReader(onExchange), options);
  }
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { ok: false, reason: 'is a directory, not a HAR file' };
    size = info.size;
  } catch (error) {
    return cannotRead(error);
  }
  options.onSize?.(size);
  const reader = createHarStreamReader(onExchange, { loadFile: (name) => loadSibling(path, name) });
  return readAll(createReadStream(path, { highWaterMark: READ_BYTES }), reader, options, options.onProgress?.(size), size);
}

async function readAll(chunks: AsyncIterable<Uint8Array>, reader: ReturnType<typeof createHarStreamReader>, { onBytes, backlog }: HarFileOptions, progress?: Progress, size = 0): Promise<HarStreamResult> {
  try {
    for await (const chunk of chunks) {
      reader.push(chunk);
      onBytes?.(chunk);
      progress?.(reader.bytes, size);
      const behind = backlog?.();
      if (behind) await behind;
      // Past the point where it can be HAR: the rest need not be read.
      if (reader.failure !== undefined) break;
    }
  } catch (error) {
    return cannotRead(error);
  }
  return reader.finish();
}

function cannotRead(error: unknown): HarStreamResult {
  const code = (error as NodeJS.ErrnoException).code;
  return { ok: false, reason: `cannot read (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})` };
}

/**
 * Playwright's `attach` mode stores bodies in files beside the HAR. Only plain names are taken:
 * a hostile HAR must not make us read `/etc/passwd` or `../secrets`.
 */
function loadSibling(harFile: string, name: string): Uint8Array | undefined {
  if (name !== basename(name) || name.startsWith('.')) return undefined;
  try {
    return readFileSync(join(dirname(harFile), name));
  } catch {
    return undefined;
  }
}
