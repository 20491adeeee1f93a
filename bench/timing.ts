/** CPU time this process has used, in ms (user + system, all its threads, GC helpers too). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * CPU time is counted in clock ticks on some kernels (4 ms here), so a piece of work is repeated
 * until it has taken at least this long, and its time is the average.
 */
const MIN_SAMPLE_MS = 40;

/** The CPU time `work` takes, in ms: averaged over as many runs as make {@link MIN_SAMPLE_MS}. */
function sample(work: () => void): number {
  const start = cpuMs();
  let runs = 0;
  let elapsed = 0;
  do {
    work();
    runs++;
    elapsed = cpuMs() - start;
  } while (elapsed < MIN_SAMPLE_MS);
  return elapsed / runs;
}

/**
 * Best-of-N CPU times of several pieces of work, taken in turns. CPU time, not wall time: on a
 * shared 2-core machine another process steals wall time at random, while the CPU time a piece
 * of work needs barely moves. Taking turns spreads what noise remains over every contender.
 */
export function bestInTurns(runs: number, works: readonly (() => void)[]): number[] {
  const best = works.map(() => Infinity);
  for (let i = 0; i < runs; i++) {
    works.forEach((work, k) => {
      best[k] = Math.min(best[k]!, sample(work));
    });
  }
  return best;
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
