import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { prng } from '../../test/support/fixtures';
import { createEntryLineScanner, entryLines } from './entry-lines';

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

  it('finds the same lines when the bytes come in chunks cut anywhere (inside strings, escapes, UTF-8)', () => {
    const text = readFileSync(join(ROOT, 'test/fixtures/har/sdk-lost-buffer.har'), 'utf8').replace('"version": "1.2"', '"version": "1.2 \\"é[{"');
    const bytes = new TextEncoder().encode(text);
    const whole = entryLines(text);
    const random = prng(7);
    for (let run = 0; run < 20; run++) {
      const scanner = createEntryLineScanner();
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(random() * 64);
        scanner.push(bytes.subarray(at, at + size));
        at += size;
      }
      expect(scanner.lines).toEqual(whole);
    }
    expect(whole.length).toBeGreaterThan(0);
  });

  it('is not fooled by brackets, quotes and keys inside strings, or by entries keys elsewhere', () => {
    const text = '{"x":{"entries":[{}]},\n"log":{"creator":{"name":"a\\"[{"},"entries":[\n{"request":{"url":"{\\"entries\\":[{"}},\n\n{}]}}';
    expect(entryLines(text)).toEqual([3, 5]);
  });
});
