import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { entryLines } from './entry-lines';

const ROOT = join(import.meta.dirname, '../..');

describe('entryLines', () => {
  it.each(globSync('test/fixtures/har/**/*.har', { cwd: ROOT }).sort())('finds the line of every entry of %s', (fixture) => {
    const text = readFileSync(join(ROOT, fixture), 'utf8');
    const har = JSON.parse(text) as { log: { entries: unknown[] } };
    const lines = entryLines(text);
    expect(lines).toHaveLength(har.log.entries.length);
    const all = text.split('\n');
    // Pretty-printed writers put each entry's `{` on its own line; one-line writers on line 1.
    for (const line of lines) expect(all[line - 1]!.trim().startsWith('{') || lines.every((l) => l === 1)).toBe(true);
  });

  it('is not fooled by brackets, quotes and keys inside strings, or by entries keys elsewhere', () => {
    const text = '{"x":{"entries":[{}]},\n"log":{"creator":{"name":"a\\"[{"},"entries":[\n{"request":{"url":"{\\"entries\\":[{"}},\n\n{}]}}';
    expect(entryLines(text)).toEqual([3, 5]);
  });
});
