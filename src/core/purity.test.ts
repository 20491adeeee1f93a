import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findModuleState } from '../../test/support/module-state';

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

  it('keeps no module-level mutable state: caches and scratch belong to an analyzer', () => {
    const code = new Map(files.map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
    expect(findModuleState(code)).toEqual([]);
  });

  it('tells module-level mutable state from constants', () => {
    const state = (code: string) => findModuleState(new Map([['x.ts', code]])).map((s) => s.name);
    expect(state('let last = 0;')).toEqual(['last']);
    expect(state('const seen = new Map(); export function f(k) { seen.set(k, 1); }')).toEqual(['seen']);
    expect(state('const scratch = new Uint32Array(4); function f() { scratch[0]! += 1; }')).toEqual(['scratch']);
    expect(state('const cache = {}; function f() { cache.hit = true; }')).toEqual(['cache']);
    expect(state('const LINE = /a/g; function f(t) { return LINE.exec(t); }')).toEqual(['LINE']);
    expect(state("const d = new TextDecoder(); function f(b) { return d.decode(b, { stream: true }); }")).toEqual(['d']);
    expect(state("const KEYS = new Set(['a']); const T = Object.freeze({ a: 1 }); const R = /a/; const d = new TextDecoder(); function f(k, b) { return KEYS.has(k) && R.test(k) && d.decode(b); }")).toEqual([]);
  });

  for (const file of files) {
    it(`${file} uses no browser or Node API`, () => {
      const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const [pattern, what] of FORBIDDEN) expect(pattern.test(code), `${file} uses ${what}`).toBe(false);
      expect(importsOutside(dir, file, code), `${file} imports from outside src/core`).toEqual([]);
    });
  }
});
