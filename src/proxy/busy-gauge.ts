import { performance } from 'node:perf_hooks';

/**
 * Whether this thread has been busy since the last look: its event loop spent more than `share`
 * of that time working rather than waiting for I/O. The proxy's forwarding thread is busy like
 * that only while bytes pour through it, which is when anything else on the machine's cores
 * slows them down.
 */
export function createBusyGauge(share = 0.5): () => boolean {
  let mark = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, mark);
    mark = now;
    return utilization > share;
  };
}
