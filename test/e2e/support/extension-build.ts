import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Builds the extension for `target` into dist/<target> (what `npm run build:ext` does), so the
 * browser tests never run against a stale bundle. Takes about a second.
 */
export async function buildExtension(target: 'chrome' | 'firefox', options: { /** Optional permissions granted at install (dist/<target>-pregrant). */ pregrant?: boolean } = {}): Promise<string> {
  const mode = options.pregrant ? `${target}-pregrant` : target;
  await build({ root: ROOT, configFile: resolve(ROOT, 'vite.config.ts'), mode, logLevel: 'error' });
  const dir = resolve(ROOT, 'dist', mode);
  if (!existsSync(resolve(dir, 'manifest.json'))) throw new Error(`no manifest in ${dir}`);
  return dir;
}
