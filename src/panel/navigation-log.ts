/** Navigations of the inspected page the panel keeps; past it the oldest go, and are counted. */
export const MAX_NAVIGATIONS = 500;

/** "navigated to `url` at `time`": a new document in the inspected tab (ms since the epoch). */
export interface NavigationMark {
  url: string;
  time: number;
}

/**
 * The inspected page's navigations, oldest first. The same navigation may arrive twice (a panel
 * that attaches again gets the tab's history again), so it is kept once.
 */
export function createNavigationLog(max = MAX_NAVIGATIONS) {
  const keyOf = (m: NavigationMark) => `${m.time} ${m.url}`;
  const seen = new Set<string>();
  let marks: NavigationMark[] = [];
  let evicted = 0;
  return {
    /** Returns false for a navigation already kept. */
    add(mark: NavigationMark): boolean {
      const key = keyOf(mark);
      if (seen.has(key)) return false;
      seen.add(key);
      // A new array each time: the panel publishes it as a signal value.
      marks = [...marks, { url: mark.url, time: mark.time }].sort((a, b) => a.time - b.time);
      while (marks.length > max) {
        seen.delete(keyOf(marks.shift()!));
        evicted += 1;
      }
      return true;
    },
    marks: (): readonly NavigationMark[] => marks,
    /** Navigations the cap pushed out. */
    evicted: () => evicted,
    clear(): void {
      seen.clear();
      marks = [];
    },
  };
}
