import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

  it.each(['chrome', 'firefox'])('%s: the CSP, where set, allows no eval, no inline script and no remote script source', (target) => {
    const m = manifest(target);
    const csp = m.content_security_policy;
    // MV3 accepts only an object of policies; absent means the browser's strict default
    // ("script-src 'self'; object-src 'self'"), which is what we want.
    const policies = csp === undefined ? [] : Object.values(csp as Record<string, string>);
    expect(policies.every((p) => typeof p === 'string')).toBe(true);
    for (const policy of policies) {
      const directives = new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!.toLowerCase(), values]));
      const scripts = directives.get('script-src') ?? directives.get('default-src') ?? [];
      expect(scripts).not.toContain("'unsafe-eval'");
      expect(scripts).not.toContain("'unsafe-inline'");
      // Only the extension's own files: no scheme, host or wildcard source.
      expect(scripts.filter((source) => /^(https?:|data:|blob:|\*|[a-z0-9-]+\.[a-z])/i.test(source))).toEqual([]);
    }
    console.log(`${target}: content_security_policy ${csp === undefined ? 'absent (the MV3 default applies)' : JSON.stringify(csp)}`);
  });

  it.each(['chrome', 'firefox'])('%s: no built file evaluates strings or loads a remote script', (target) => {
    const dir = join(root, 'dist', target);
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(m?js|html)$/.test(f));
    expect(files.filter((f) => f.endsWith('js')).length).toBeGreaterThan(3);
    const REMOTE = '[\'"`]\\s*(https?:)?//';
    const forbidden: [string, RegExp][] = [
      ['eval(', /\beval\s*\(/],
      ['new Function(', /\bnew\s+Function\s*\(/],
      ['setTimeout/setInterval with a string', /\bset(Timeout|Interval)\s*\(\s*['"`]/],
      ['a remote import()', new RegExp(`\\bimport\\s*\\(\\s*${REMOTE}`)],
      ['a remote static import', new RegExp(`\\bfrom\\s*${REMOTE}`)],
      ['a remote importScripts()', new RegExp(`\\bimportScripts\\s*\\(\\s*${REMOTE}`)],
      ['a remote <script src>', new RegExp(`<script[^>]*\\ssrc\\s*=\\s*${REMOTE}`, 'i')],
    ];
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const [what, pattern] of forbidden) if (pattern.test(text)) found.push(`${file}: ${what}`);
    }
    expect(found).toEqual([]);
    console.log(`${target}: ${files.length} built JS/HTML files scanned, no eval, new Function or remote script`);
  });
});
