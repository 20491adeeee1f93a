import { describe, expect, it } from 'vitest';
import { measureCliHar, measureCliHarBig } from '../../bench/cli-har';
import { measurePanelImport } from '../../bench/panel-import';
import type { BenchRow } from '../../bench/row';

// Issue 23's benchmarks on small inputs (scale 'smoke'): each runs end to end (the CLI as it
// ships, the inline shell in real Chromium) and returns well-formed rows. Targets are not
// asserted: CI machines are too noisy for that, and small files measure process start-up.

function expectWellFormed(r: BenchRow): void {
  expect(Number.isFinite(r.value)).toBe(true);
  expect(r.value).toBeGreaterThan(0);
  expect(r.pass).toBe(r.better === 'lower' ? r.value <= r.target : r.value >= r.target);
  expect(r.detail).not.toMatch(/NaN|undefined|Infinity/);
}

describe('scale benchmarks, smoke scale', { timeout: 300_000 }, () => {
  it('cli-har and cli-har-memory: check and a parse-only process on the same generated HAR', async () => {
    const rows = await measureCliHar('smoke');
    expect(rows.map((r) => r.name)).toEqual(['cli-har', 'cli-har-memory']);
    rows.forEach(expectWellFormed);
  });

  it('cli-har-big: the check completes', async () => {
    const rows = await measureCliHarBig('smoke');
    expect(rows.map((r) => r.name)).toEqual(['cli-har-big']);
    rows.forEach(expectWellFormed);
    expect(rows[0]!.detail).toMatch(/completed \(exit [01]\)/);
  });

  it('panel-import and its longest task, in the inline shell', async () => {
    const rows = await measurePanelImport('smoke');
    expect(rows.map((r) => r.name)).toEqual(['panel-import', 'panel-import-longest-task']);
    rows.forEach(expectWellFormed);
  });
});
