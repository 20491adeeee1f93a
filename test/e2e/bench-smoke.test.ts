import { describe, expect, it } from 'vitest';
import { runLiveLatency } from '../../bench/live-latency';
import { measurePageTap } from '../../bench/page-tap';
import type { BenchRow } from '../../bench/row';
import { measureTimelineFrame } from '../../bench/timeline-frame';

// The browser benchmarks on small inputs (scale 'smoke'): each runs end to end in real Chromium
// and returns well-formed rows. Targets are not asserted: CI machines are too noisy for that.

const meetsTarget = (r: BenchRow) => (r.better === 'lower' ? r.value <= r.target : r.value >= r.target);

function expectWellFormed(r: BenchRow): void {
  expect(Number.isFinite(r.value)).toBe(true);
  expect(r.value).toBeGreaterThan(0);
  expect(r.baseline).not.toBe('');
  expect(r.detail).not.toMatch(/NaN|undefined/);
}

describe('browser benchmarks, smoke scale', () => {
  it('timeline-frame: a pan/zoom frame ratio from the inline shell', async () => {
    const rows = await measureTimelineFrame('smoke');
    expect(rows.map((r) => r.name)).toEqual(['timeline-frame']);
    for (const r of rows) {
      expectWellFormed(r);
      expect(r.pass).toBe(meetsTarget(r));
    }
  });

  it('page-tap and dormant-tap: with / without the extension', async () => {
    const rows = await measurePageTap('smoke');
    expect(rows.map((r) => r.name)).toEqual(['page-tap', 'dormant-tap']);
    for (const r of rows) {
      expectWellFormed(r);
      expect(r.pass).toBe(meetsTarget(r));
    }
  });

  it('live-latency: every event painted, the burst delivered with no uncounted drop', async () => {
    const { row, latency, burst } = await runLiveLatency('smoke');
    expect(row.name).toBe('live-latency');
    expectWellFormed(row);
    expect(latency.ms.length).toBeGreaterThan(0);
    expect(latency.ms.length).toBe(latency.received);
    expect(latency.unpainted).toBe(0);
    expect(burst.pageEvents).toBe(burst.total);
    expect(burst.received + burst.dropped).toBeGreaterThan(0);
    expect(burst.uncounted).toBe(0);
    expect(row.pass).toBe(meetsTarget(row) && burst.uncounted === 0 && latency.unpainted === 0);
  });
});
