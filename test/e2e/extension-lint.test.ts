import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The built extensions, as a store would see them: `web-ext lint` (Mozilla's addons-linter, run
 * locally) must report no error for the Firefox build, and both manifests stay MV3 without
 * remote code or eval in their CSP. Runs after `npm run build` (part of `npm test`).
 */
const root = join(import.meta.dirname, '../..');
const manifest = (target: string) => JSON.parse(readFileSync(join(root, 'dist', target, 'manifest.json'), 'utf8')) as Record<string, unknown>;

describe('the built extensions', () => {
  it('web-ext lint reports 0 errors for dist/firefox', async () => {
    const webExt = join(root, 'node_modules/web-ext/bin/web-ext.js');
    const { stdout } = await promisify(execFile)(process.execPath, [webExt, 'lint', '--source-dir', join(root, 'dist/firefox'), '--output', 'json'], { maxBuffer: 16 * 1024 * 1024 })
      .catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const result = JSON.parse(stdout) as { summary: { errors: number }; errors: { message: string }[] };
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.summary.errors).toBe(0);
  });

  it.each(['chrome', 'firefox'])('%s: MV3, and no unsafe-eval or remote code in the CSP', (target) => {
    const m = manifest(target);
    expect(m.manifest_version).toBe(3);
    const csp = JSON.stringify(m.content_security_policy ?? '');
    expect(csp).not.toMatch(/unsafe-eval|https?:/);
  });
});
