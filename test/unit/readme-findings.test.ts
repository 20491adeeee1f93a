import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINDINGS } from '../../src/core/index';

/** The README's findings table: `| \`code\` | severity | title |` rows. */
function readmeRows(): Map<string, { severity: string; title: string }> {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const rows = new Map<string, { severity: string; title: string }>();
  for (const [, code, severity, title] of readme.matchAll(/^\| `([a-z-]+)` \| (error|warning|info)[^|]* \| ([^|]+) \|$/gm)) {
    rows.set(code!, { severity: severity!, title: title!.trim() });
  }
  return rows;
}

describe("the README's findings table", () => {
  it('lists every code of the findings table with its severity and title, and no other', () => {
    const rows = readmeRows();
    expect([...rows.keys()].sort()).toEqual(Object.keys(FINDINGS).sort());
    for (const [code, info] of Object.entries(FINDINGS)) {
      expect(rows.get(code), code).toEqual({ severity: info.severity, title: info.title });
    }
  });
});
