import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { DemoError } from './demo-error.js';
import { isStale, mtimeOf } from './freshness.js';
import type { Lifecycle } from './lifecycle.js';
import { PAGE_DIR } from './site.js';

const ROOT = resolve(import.meta.dirname, '../..');
const at = (...parts: string[]) => join(ROOT, ...parts);

export type ExtensionTarget = 'chrome' | 'firefox';

/** What the extension build reads: a newer file here means dist/ is stale. */
const EXTENSION_SOURCES = [at('src'), at('public'), at('manifest.config.ts'), at('vite.config.ts')];
/** What the page bundle reads (the guarded client bundles src/guard and the core). */
const PAGE_SOURCES = [at('demo/page'), at('demo/client'), at('demo/scenario-catalog.ts'), at('src/guard'), at('src/core')];

/**
 * The unpacked extension for `target` (dist/chrome or dist/firefox), built first with
 * `npm run build` when it is missing or older than its sources. A failed rebuild over an older
 * build keeps the older build (with a warning); with no build at all the demo cannot run.
 */
export async function ensureExtension(target: ExtensionTarget, lifecycle: Lifecycle, log: (line: string) => void): Promise<string> {
  const dir = at('dist', target);
  const manifest = join(dir, 'manifest.json');
  if (!(await isStale(manifest, EXTENSION_SOURCES))) return dir;
  const existed = (await mtimeOf(manifest)) !== undefined;
  log(existed ? `demo: dist/${target} is older than src/: npm run build` : `demo: dist/${target} is not built yet: npm run build`);
  const code = await runNpmBuild(lifecycle);
  if (code === 0 && (await mtimeOf(manifest)) !== undefined) return dir;
  if (existed) {
    log(`demo: npm run build failed (exit ${code}); using the older build in dist/${target}`);
    return dir;
  }
  throw new DemoError(
    `the extension is not built: npm run build exited ${code} and dist/${target}/manifest.json does not exist (the extension build is issue 3; run npm run build to see why)`,
  );
}

/** Builds the demo page into dist/demo-page when it is missing or older than its sources. */
export async function ensurePage(log: (line: string) => void): Promise<void> {
  if (!(await isStale(join(PAGE_DIR, 'index.html'), PAGE_SOURCES))) return;
  log('demo: building the demo page (vite build --config demo/page/vite.config.ts)');
  await build({ configFile: at('demo/page/vite.config.ts') });
}

/** `npm run build` with its output on our stderr (stdout is the demo's own report). */
function runNpmBuild(lifecycle: Lifecycle): Promise<number> {
  return new Promise((resolvePromise) => {
    const child = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    lifecycle.adopt(child);
    child.once('error', () => resolvePromise(127));
    child.once('exit', (code, signal) => resolvePromise(code ?? (signal ? 128 : 1)));
  });
}
