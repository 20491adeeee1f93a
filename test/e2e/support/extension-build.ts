import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Builds the extension for `target` into dist/<target> (what `npm run build:ext` does), so the
 * browser tests never run against a stale bundle. Takes about a second.
 */
export async function buildExtension(target: 'chrome' | 'firefox'): Promise<string> {
  await build({ root: ROOT, configFile: resolve(ROOT, 'vite.config.ts'), mode: target, logLevel: 'error' });
  const dir = resolve(ROOT, 'dist', target);
  if (!existsSync(resolve(dir, 'manifest.json'))) throw new Error(`no manifest in ${dir}`);
  return dir;
}
