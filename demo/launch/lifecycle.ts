import type { ChildProcess } from 'node:child_process';
import { oneLine } from './demo-error.js';

/** How long one cleanup may take before shutdown moves on to the next. */
export const CLEANUP_DEADLINE_MS = 5_000;

export interface Lifecycle {
  /** Registers a cleanup; they run once, newest first, at {@link Lifecycle.exit}. */
  defer(cleanup: () => unknown): void;
  /** Kills `child` when the demo exits, even if the orderly cleanups never ran. */
  adopt(child: ChildProcess): void;
  /** Resolves with the signal's name on SIGINT, SIGTERM or SIGHUP. */
  interrupted: Promise<string>;
  /** Runs the cleanups, then exits the process with `code`. */
  exit(code: number): Promise<never>;
}

/**
 * The demo's process lifecycle: signals, crashes and cleanups. Every child process and server
 * registers here, so that Ctrl-C, a closed browser, a crash or a normal end all leave nothing
 * running. A second Ctrl-C during shutdown kills the children at once and exits.
 */
export function createLifecycle(log: (line: string) => void): Lifecycle {
  const cleanups: (() => unknown)[] = [];
  const children = new Set<ChildProcess>();
  let exiting: Promise<never> | undefined;
  let onSignal: (name: string) => void = () => {};
  const interrupted = new Promise<string>((resolve) => (onSignal = resolve));

  const killChildren = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', killChildren);
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, () => {
      if (exiting) {
        killChildren();
        process.exit(130);
      }
      onSignal(name);
    });
  }

  const lifecycle: Lifecycle = {
    defer: (cleanup) => void cleanups.push(cleanup),
    adopt(child) {
      children.add(child);
      child.once('exit', () => children.delete(child));
    },
    interrupted,
    exit(code) {
      exiting ??= (async () => {
        for (const cleanup of cleanups.reverse()) {
          let timer: NodeJS.Timeout | undefined;
          const deadline = new Promise((resolve) => (timer = setTimeout(resolve, CLEANUP_DEADLINE_MS)));
          await Promise.race([Promise.resolve().then(cleanup), deadline]).catch((error: unknown) => log(`demo: cleanup failed: ${oneLine(error)}`));
          clearTimeout(timer);
        }
        killChildren();
        process.exit(code);
      })();
      return exiting;
    },
  };
  // In-process replicas and servers share this process: a crash in any of them ends the demo.
  const crash = (error: unknown) => {
    log(`demo: crashed: ${oneLine(error)}`);
    void lifecycle.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  return lifecycle;
}
