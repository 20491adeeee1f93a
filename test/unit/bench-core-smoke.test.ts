import { describe, expect, it } from 'vitest';
import { measureCore } from '../../bench/core';
import { measureFloor } from '../../bench/core-floor';

// CI runs no benchmark for its figures (a shared machine's timings mean little); this proves the
// core rows still run, on a small input, and produce rows the suite can print and save.
describe('bench smoke: the core rows', { timeout: 120_000 }, () => {
  it('measures core-ingest, core-vs-framing, incremental and memory-per-event on a small input', () => {
    const rows = measureCore('smoke');
    console.log(rows.map((r) => `${r.name} ${r.value.toFixed(2)} ${r.unit} (${r.detail})`).join('\n'));
    expect(rows.map((r) => r.name)).toEqual(['core-ingest', 'core-vs-framing', 'incremental', 'memory-per-event']);
    for (const r of rows) {
      expect(Number.isFinite(r.value), r.name).toBe(true);
      expect(r.value, r.name).toBeGreaterThan(0);
      expect(r.pass, r.name).toBe(r.better === 'lower' ? r.value <= r.target : r.value >= r.target);
    }
  });

  it('times the floor of the analysis, part by part, on a small input', () => {
    const floor = measureFloor('smoke');
    console.log(JSON.stringify(floor));
    // Every block but each stream's result is matched: its payload holds an array, which no
    // template learns (json-shapes.ts).
    expect(floor.matched).toBeGreaterThan(floor.events * 0.9);
    expect(floor.matched).toBeLessThanOrEqual(floor.events);
    for (const part of ['frame', 'decode', 'match', 'ids', 'rows'] as const) expect(floor[part], part).toBeGreaterThan(0);
  });
});
