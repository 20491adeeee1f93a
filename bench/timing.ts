/** CPU time this process has used, in ms (user + system, all its threads, GC helpers too). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
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
      const start = cpuMs();
      work();
      best[k] = Math.min(best[k]!, cpuMs() - start);
    });
  }
  return best;
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
