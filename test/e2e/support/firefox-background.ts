import type { Page } from 'puppeteer-core';

/** What Firefox itself says about an extension's background, counted from the watch's start. */
export interface BackgroundStatus {
  /** The add-on's background state in the parent process: 'starting', 'running', 'suspending' or 'stopped'. */
  state: string;
  /** Times the background context finished starting, and times it was torn down. */
  starts: number;
  stops: number;
}

interface Log {
  starts: number;
  stops: number;
  waiters: Set<() => void>;
}

/**
 * Watches an event page through Firefox's own record of it, from a privileged page (see
 * openPrivileged in firefox.ts): the parent process notifies `extension:background-script-status`
 * when a background context is up and again when it is gone (what about:debugging shows as
 * Running / Stopped), and `WebExtensionPolicy.extension.backgroundState` says where it is now.
 * No debugger attaches to the background: Firefox never idles one that a toolbox inspects.
 */
export async function watchBackground(privileged: Page, addonId: string) {
  await privileged.evaluate((id: string) => {
    const g = globalThis as unknown as {
      Services: { obs: { addObserver(o: object, topic: string): void } };
      __mslBackground?: Log & { observer: object };
    };
    if (g.__mslBackground) throw new Error('already watched');
    const log: Log & { observer: object } = {
      starts: 0,
      stops: 0,
      waiters: new Set(),
      observer: {
        observe(subject: { wrappedJSObject: { addonId: string; isRunning: boolean } }) {
          const { addonId: which, isRunning } = subject.wrappedJSObject;
          if (which !== id) return;
          if (isRunning) log.starts += 1;
          else log.stops += 1;
          for (const wake of [...log.waiters]) wake();
        },
      },
    };
    g.__mslBackground = log;
    g.Services.obs.addObserver(log.observer, 'extension:background-script-status');
  }, addonId);

  const status = () =>
    privileged.evaluate((id: string) => {
      const g = globalThis as unknown as { __mslBackground: Log; WebExtensionPolicy: { getByID(id: string): { extension?: { backgroundState?: string } } | null } };
      const state = g.WebExtensionPolicy.getByID(id)?.extension?.backgroundState ?? 'no such add-on';
      return { state, starts: g.__mslBackground.starts, stops: g.__mslBackground.stops };
    }, addonId) as Promise<BackgroundStatus>;

  return {
    status,
    /** Resolves with the status once Firefox has torn the background down more than `after` times; rejects after `timeoutMs`. */
    stoppedMoreThan: (after: number, timeoutMs: number) =>
      privileged
        .evaluate(
          (n: number, ms: number) =>
            new Promise<number>((resolve, reject) => {
              const log = (globalThis as unknown as { __mslBackground: Log }).__mslBackground;
              const check = () => {
                if (log.stops <= n) return;
                log.waiters.delete(check);
                clearTimeout(timer);
                resolve(log.stops);
              };
              const timer = setTimeout(() => {
                log.waiters.delete(check);
                reject(new Error(`the background was not torn down within ${ms} ms (stops ${log.stops}, starts ${log.starts})`));
              }, ms);
              log.waiters.add(check);
              check();
            }),
          after,
          timeoutMs,
        )
        .then(status),
  };
}
