/**
 * How many analyses the panel has taken in (and painted), which the import's analysis waits on:
 * see `MAX_UNTAKEN` in analyse-har-blob.ts. The worker and the panel's own fallback each keep one.
 */
export interface Pacing {
  readonly taken: number;
  /** Resolves at the next {@link PacingControl.take}. */
  next(): Promise<void>;
}

export interface PacingControl extends Pacing {
  /** The panel has taken in one more analysis (or the analysis should stop waiting). */
  take(): void;
}

export function createPacing(): PacingControl {
  let taken = 0;
  const waiting = new Set<() => void>();
  return {
    get taken() {
      return taken;
    },
    next: () => new Promise<void>((resolve) => waiting.add(resolve)),
    take() {
      taken++;
      for (const wake of waiting) wake();
      waiting.clear();
    },
  };
}
