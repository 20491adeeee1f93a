import { describe, expect, it } from 'vitest';
import { measureProxy } from '../../bench/proxy';

// The proxy's benchmarks on small inputs (scale 'smoke'): the CLI's bundle as a proxy process
// in front of the bench target. Figures are not asserted (CI machines are too noisy); that every
// row runs, with every byte and event through, is.
describe('bench smoke: proxy-throughput, proxy-floor, proxy-floor-recording, proxy-vs-floor, proxy-latency, proxy-memory', () => {
  it('measures all six rows with every byte and every event delivered', async () => {
    const rows = await measureProxy('smoke');
    for (const r of rows) console.log(`${r.name} ${r.value.toFixed(2)} ${r.unit} (${r.detail})`);
    expect(rows.map((r) => r.name)).toEqual(['proxy-throughput', 'proxy-floor', 'proxy-floor-recording', 'proxy-vs-floor', 'proxy-latency', 'proxy-memory']);
    for (const r of rows) {
      expect(Number.isFinite(r.value)).toBe(true);
      expect(r.detail).not.toMatch(/NaN|undefined|FAIL/);
      // The floors are information only (target Infinity): they have no verdict to fail.
      expect(r.pass).toBe(!Number.isFinite(r.target) || (r.better === 'lower' ? r.value <= r.target : r.value >= r.target));
    }
    expect([rows[1]!.target, rows[2]!.target]).toEqual([Infinity, Infinity]);
    for (const r of rows.slice(0, 3)) expect(r.value).toBeGreaterThan(0);
    // The same turns, so the proxy's share of the floor is the two ratios' quotient.
    expect(rows[3]!.value).toBeCloseTo(rows[0]!.value / rows[1]!.value, 6);
    expect(rows[0]!.detail).toMatch(/ms forwarding \(main thread\)/);
  });
});
