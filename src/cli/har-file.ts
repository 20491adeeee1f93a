import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createHarStreamReader, type Exchange, type HarStreamResult } from '../core';

/**
 * Reads of this size are what the reader scans in one go (it gathers smaller ones): fewer,
 * larger reads cost the system less per byte.
 */
const READ_BYTES = 1024 * 1024;

/** How far a read is: bytes read of the file's size. */
export type Progress = (read: number, total: number) => void;


/**
 * Reads a HAR file as a stream, entry by entry, and hands each exchange to `onExchange`: the
 * file is never one string, so its size is bounded only by the machine. Bodies Playwright
 * stored beside the HAR (`content._file`) are read from there. `onProgress`, given the file's
 * size, may return where to report bytes read.
 */
export async function readHarFile(file: string, onExchange: (exchange: Exchange) => void, onProgress?: (size: number) => Progress | undefined): Promise<HarStreamResult> {
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return { ok: false, reason: 'is a directory, not a HAR file' };
    size = info.size;
  } catch (error) {
    return cannotRead(error);
  }
  const reader = createHarStreamReader(onExchange, { loadFile: (name) => loadSibling(file, name) });
  const progress = onProgress?.(size);
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: READ_BYTES })) {
      reader.push(chunk as Buffer);
      progress?.(reader.bytes, size);
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
