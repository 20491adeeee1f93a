import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readHar, type HarReadResult } from '../core';
import { entryLines } from './entry-lines';

/** Standard input, as `-` names it on the command line. */
export const STDIN = '-';

/** A HAR bigger than this is refused rather than read into memory whole. */
export const MAX_HAR_BYTES = 512 * 1024 * 1024;

/** Standard input, for `-`: the whole text, or undefined past `max` bytes. */
export type ReadStdin = (max: number) => Promise<string | undefined>;

/** A HAR read from a file: the reader's result, and where each entry starts when asked. */
export type HarFileResult = HarReadResult & {
  /** The 1-based line of each `log.entries` element, for SARIF regions (with `entryLines: true`). */
  entryLines?: number[];
};

/**
 * Reads one input (a path, or `-` for standard input) as a HAR: its exchanges, or one line
 * saying why not. The only place the CLI reads a HAR, so a streaming reader replaces just this.
 */
export async function readHarFile(path: string, readStdin: ReadStdin, options: { entryLines?: boolean } = {}): Promise<HarFileResult> {
  const text = path === STDIN ? await fromStdin(readStdin) : await readText(path);
  if (typeof text !== 'string') return text;
  // Standard input has no folder beside it: bodies attached in files cannot be found.
  const read = readHar(text, path === STDIN ? {} : { loadFile: (name) => loadSibling(path, name) });
  return read.ok && options.entryLines ? { ...read, entryLines: entryLines(text) } : read;
}

type Failed = Extract<HarReadResult, { ok: false }>;

async function fromStdin(readStdin: ReadStdin): Promise<string | Failed> {
  const text = await readStdin(MAX_HAR_BYTES);
  return text ?? { ok: false, reason: `standard input is over the ${MAX_HAR_BYTES}-byte limit` };
}

async function readText(file: string): Promise<string | Failed> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) return { ok: false, reason: 'is a directory, not a HAR file' };
    if (info.size > MAX_HAR_BYTES) return { ok: false, reason: `${info.size} bytes is over the ${MAX_HAR_BYTES}-byte limit` };
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: `cannot read (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})` };
  }
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
