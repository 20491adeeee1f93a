import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Files looked at per freshness check at most; the source trees hold a few hundred. */
export const MAX_FILES_CHECKED = 20_000;

/** A file's modification time in ms, or undefined when it does not exist. */
export async function mtimeOf(path: string): Promise<number | undefined> {
  return (await stat(path).catch(() => undefined))?.mtimeMs;
}

/**
 * The newest modification time among `paths` (files, or directories walked recursively),
 * skipping tests: they do not go into a build.
 */
export async function newestMtime(paths: readonly string[]): Promise<number> {
  let newest = 0;
  let budget = MAX_FILES_CHECKED;
  const queue = [...paths];
  while (queue.length > 0 && budget > 0) {
    const path = queue.pop()!;
    budget -= 1;
    const info = await stat(path).catch(() => undefined);
    if (!info) continue;
    if (info.isDirectory()) {
      for (const entry of await readdir(path)) if (!/\.test\.tsx?$/.test(entry)) queue.push(join(path, entry));
    } else newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/** True when `output` is missing or older than any of `sources`. */
export async function isStale(output: string, sources: readonly string[]): Promise<boolean> {
  const built = await mtimeOf(output);
  return built === undefined || built < (await newestMtime(sources));
}
