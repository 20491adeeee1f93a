import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import JSZip from 'jszip';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/extension-build';

// `npm run package`: the store uploads. It builds both extensions, refuses to go on if
// `web-ext lint` finds an error in the Firefox build, and zips each with `web-ext build`. Each zip
// is unpacked here as a store would, and the Firefox one is linted again from what it holds.

const run = promisify(execFile);
const version = async () => (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const zip = (target: string, v: string) => join(ROOT, 'dist/packages', `mcp-stream-lens-${target}-${v}.zip`);
let dir = '';

/** Unpacks a zip into `out`, as a store does (no entry may land outside it). */
async function unpack(file: string, out: string): Promise<void> {
  const zip = await JSZip.loadAsync(await readFile(file));
  for (const entry of Object.values(zip.files)) {
    const target = resolve(out, entry.name);
    if (!target.startsWith(out + sep)) throw new Error(`zip entry outside the folder: ${entry.name}`);
    if (entry.dir) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await entry.async('uint8array'));
  }
}

beforeAll(async () => {
  await run('npm', ['run', 'package'], { cwd: ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
  dir = await mkdtemp(join(tmpdir(), 'msl-zips-'));
}, 250_000);
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

describe('npm run package', () => {
  it.each(['chrome', 'firefox'])('makes the %s zip, with the package version and the built files at its root', async (target) => {
    const v = await version();
    const out = join(dir, target);
    await unpack(zip(target, v), out);
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as { version: string; manifest_version: number; devtools_page: string; browser_specific_settings?: unknown };
    expect(manifest).toMatchObject({ version: v, manifest_version: 3 });
    await expect(readFile(join(out, manifest.devtools_page), 'utf8')).resolves.toContain('<script');
    if (target === 'firefox') expect(manifest.browser_specific_settings).toHaveProperty('gecko');
    else expect(manifest.browser_specific_settings).toBeUndefined();
  });

  it('the Firefox zip, unpacked, passes web-ext lint with 0 errors', async () => {
    const out = join(dir, 'firefox-lint');
    await unpack(zip('firefox', await version()), out);
    const webExt = join(ROOT, 'node_modules/web-ext/bin/web-ext.js');
    const { stdout } = await run(process.execPath, [webExt, 'lint', '--source-dir', out, '--output', 'json'], { maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const result = JSON.parse(stdout) as { summary: { errors: number }; errors: { message: string }[] };
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.summary.errors).toBe(0);
  }, 120_000);
});
