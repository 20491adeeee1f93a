import { describe, expect, it } from 'vitest';
import { measureProxy } from '../../bench/proxy';

// The proxy's benchmarks on small inputs (scale 'smoke'): the CLI's bundle as a proxy process
// in front of the bench target. Figures are not asserted (CI machines are too noisy); that every
// row runs, with every byte and event through, is.
describe('bench smoke: proxy-throughput, proxy-latency, proxy-memory', () => {
  it('measures all three rows with every byte and every event delivered', async () => {
    const rows = await measureProxy('smoke');
    for (const r of rows) console.log(`${r.name} ${r.value.toFixed(2)} ${r.unit} (${r.detail})`);
    expect(rows.map((r) => r.name)).toEqual(['proxy-throughput', 'proxy-latency', 'proxy-memory']);
    for (const r of rows) {
      expect(Number.isFinite(r.value)).toBe(true);
      expect(r.detail).not.toMatch(/NaN|undefined|FAIL/);
      expect(r.pass).toBe(r.better === 'lower' ? r.value <= r.target : r.value >= r.target);
    }
    expect(rows[0]!.value).toBeGreaterThan(0);
  });
});
