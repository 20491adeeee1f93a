import { performance } from 'node:perf_hooks';

/** Milliseconds since the epoch, with sub-millisecond precision and monotonic within a run. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}
