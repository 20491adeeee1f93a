import { nextTask } from './next-task';

/** The longest {@link whenIdle} waits: a panel that is never idle still moves on. */
export const IDLE_WAIT_MS = 100;

/**
 * Runs `work` once the main thread has nothing queued (`requestIdleCallback`), or after
 * {@link IDLE_WAIT_MS} at the latest. Where there is no such callback (Safari, a test DOM), in a
 * task of its own after those already queued.
 */
export function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: IDLE_WAIT_MS });
  else nextTask(work);
}
