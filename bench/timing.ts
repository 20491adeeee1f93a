/** Best-of-N wall time in ms; the minimum is the figure least disturbed by a noisy machine. */
export function bestOf(runs: number, work: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * Best-of-N wall times of several pieces of work, taken in turns: a burst of load from another
 * process then slows every contender alike instead of the one that happened to be running.
 */
export function bestInTurns(runs: number, works: readonly (() => void)[]): number[] {
  const best = works.map(() => Infinity);
  for (let i = 0; i < runs; i++) {
    works.forEach((work, k) => {
      const start = performance.now();
      work();
      best[k] = Math.min(best[k]!, performance.now() - start);
    });
  }
  return best;
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
