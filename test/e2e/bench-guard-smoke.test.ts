import { describe, expect, it } from 'vitest';
import { runGuardLatency } from '../../bench/guard-latency';

// The guard's benchmark on a small input (scale 'smoke', about 5 s): the real SDK client, with
// and without the guard, through a genuine resume at 1,000 events/s. Its figure is not asserted
// (CI machines are too noisy, and a smoke run's one turn is a cold one); that it runs, that every
// event arrives both ways, and that the guard refused no genuine resume, are.
describe('bench smoke: guard-latency', () => {
  it('measures the added p95 per event with every event delivered and no genuine resume refused', async () => {
    const { row, guarded, plain, refused } = await runGuardLatency('smoke');
    console.log(`${row.name} ${row.value.toFixed(2)} ms (${row.detail})`);
    expect(row.name).toBe('guard-latency');
    expect(Number.isFinite(row.value)).toBe(true);
    expect(row.detail).not.toMatch(/NaN|undefined|FAIL/);
    expect([guarded.events, plain.events]).toEqual([1_001, 1_001]);
    expect(refused).toBe(0);
    expect(guarded.p95).toBeGreaterThan(0);
    expect(row.pass).toBe(row.value <= row.target);
  });
});
