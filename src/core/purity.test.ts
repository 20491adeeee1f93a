import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  [/\bfrom\s+['"]\.\.\//, 'an import from outside src/core'],
];

describe('src/core purity', () => {
  const dir = import.meta.dirname;
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    it(`${file} uses no browser or Node API`, () => {
      const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const [pattern, what] of FORBIDDEN) expect(pattern.test(code), `${file} uses ${what}`).toBe(false);
    });
  }
});
