/** Whether bytes pour through: how fast a running total grew since the last look. */
export interface BurstGauge {
  /** Starts a look here: the next {@link burst} measures from now. */
  mark(): void;
  /** Whether the total grew faster than the gauge's rate since the last look (or mark), on average; starts the next look. */
  burst(): boolean;
}

/** The shortest stretch a look measures: a chunk that has only just arrived is not taken to have come infinitely fast. */
const MIN_LOOK_MS = 1;

/** A gauge of `bytes` (a running total) against `bytesPerSecond`. */
export function createBurstGauge(bytes: () => number, bytesPerSecond: number, clock: () => number = () => performance.now()): BurstGauge {
  let lastBytes = bytes();
  let lastAt = clock();
  const mark = () => {
    lastBytes = bytes();
    lastAt = clock();
  };
  return {
    mark,
    burst() {
      const grew = bytes() - lastBytes;
      const ms = Math.max(clock() - lastAt, MIN_LOOK_MS);
      mark();
      return grew > (bytesPerSecond * ms) / 1000;
    },
  };
}
