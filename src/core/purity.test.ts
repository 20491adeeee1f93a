import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * src/core is the product's heart and runs unchanged in the panel, the CLI and the service
 * worker. It may use language built-ins and WHATWG globals every runtime has (TextDecoder, URL,
 * atob), but no browser extension, DOM or Node API. This test is the lint rule that keeps it so.
 */
const FORBIDDEN: [RegExp, string][] = [
  [/from\s+['"]node:|from\s+['"](fs|path|os|http|https|child_process|url|util|stream|buffer|crypto)['"]/, 'a Node import'],
  [/from\s+['"]webextension-polyfill['"]/, 'webextension-polyfill'],
  [/\b(chrome|browser)\.[a-z]/, 'an extension API'],
  [/\b(window|document|navigator|localStorage|indexedDB)\b/, 'a DOM global'],
  [/\b(process|Buffer|global)\.|\brequire\(|\b__dirname\b/, 'a Node global'],
];

/** Every non-test source file under `dir`, as paths relative to it. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort();
}

/** Relative imports of `code` (a file at `file` under `root`) that leave `root`. */
function importsOutside(root: string, file: string, code: string): string[] {
  const specs = [...code.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.filter((spec) => relative(root, resolve(dirname(join(root, file)), spec)).startsWith('..'));
}

describe('src/core purity', () => {
  const dir = import.meta.dirname;
  const files = sources(dir);

  it('has source files to check, in its folders too', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(files.some((file) => file.includes('/'))).toBe(true);
  });

  it('tells an import that leaves src/core from one that stays', () => {
    expect(importsOutside(dir, 'rules/x.ts', "import { a } from '../model';")).toEqual([]);
    expect(importsOutside(dir, 'rules/x.ts', "import { a } from '../../shared/messages';")).toEqual(['../../shared/messages']);
  });

  for (const file of files) {
    it(`${file} uses no browser or Node API`, () => {
      const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const [pattern, what] of FORBIDDEN) expect(pattern.test(code), `${file} uses ${what}`).toBe(false);
      expect(importsOutside(dir, file, code), `${file} imports from outside src/core`).toEqual([]);
    });
  }
});
