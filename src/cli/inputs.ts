import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { STDIN } from './har-file';

/** A folder walk stops here, so a mistaken `check /` ends with a clear line instead of never. */
export const MAX_FOLDER_FILES = 10_000;

/** One thing to check: a HAR to read, or an argument that named none, with why. */
export type Input = { path: string } | { path: string; error: string };

/**
 * The HAR files the arguments name, in order: a file as given, a folder's `*.har` files
 * (recursively, sorted), a glob's matches (for shells that pass it on unexpanded, and for
 * quoted globs), `-` for standard input. An argument that names nothing is kept as an error,
 * so the others are still checked.
 */
export async function expandInputs(args: readonly string[]): Promise<Input[]> {
  const inputs: Input[] = [];
  for (const arg of args) {
    if (arg === STDIN) {
      inputs.push({ path: STDIN });
      continue;
    }
    const info = await stat(arg).catch((error: NodeJS.ErrnoException) => error);
    if (!(info instanceof Error)) {
      if (info.isDirectory()) inputs.push(...(await folderHars(arg)));
      else inputs.push({ path: arg });
      continue;
    }
    if (info.code === 'ENOENT' && isDynamicPattern(arg)) {
      const matches = (await glob(arg, { onlyFiles: true, expandDirectories: false, absolute: isAbsolute(arg) })).sort();
      if (matches.length > 0) inputs.push(...matches.map((path) => ({ path })));
      else inputs.push({ path: arg, error: 'no file matches this pattern' });
      continue;
    }
    // Left for the reader, which says why it cannot read it.
    inputs.push({ path: arg });
  }
  return inputs;
}

async function folderHars(folder: string): Promise<Input[]> {
  let entries;
  try {
    entries = await readdir(folder, { recursive: true, withFileTypes: true });
  } catch (error) {
    return [{ path: folder, error: `cannot read the folder (${(error as NodeJS.ErrnoException).code ?? String(error)})` }];
  }
  const hars = entries
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.har'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  if (hars.length === 0) return [{ path: folder, error: 'the folder holds no .har file' }];
  if (hars.length > MAX_FOLDER_FILES) return [{ path: folder, error: `the folder holds ${hars.length} .har files, over the ${MAX_FOLDER_FILES} one run checks` }];
  return hars.map((path) => ({ path }));
}
