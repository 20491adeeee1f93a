/**
 * CPU time of another process, per thread, from /proc (Linux). The proxy's forwarding runs on its
 * main thread (whose task id is the process id) and its live analysis in a worker thread; Node
 * names every thread `node`, so the rest is counted together: the analysis worker, and the
 * collector's and libuv's helpers.
 */
import { readFileSync } from 'node:fs';

/** /proc counts CPU in clock ticks; Linux reports them at 100 per second to user space. */
const TICK_MS = 10;

export interface ProcessCpu {
  /** ms of CPU (user + system) on the main thread. */
  mainMs: number;
  /** ms of CPU of the whole process, every thread (those that ended too). */
  totalMs: number;
}

/** utime + stime of one /proc stat file, in ms. */
function statMs(path: string): number {
  const text = readFileSync(path, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces: state is the
  // first, utime and stime the 12th and 13th (fields 14 and 15 of proc(5)).
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export function processCpu(pid: number): ProcessCpu {
  return { mainMs: statMs(`/proc/${pid}/task/${pid}/stat`), totalMs: statMs(`/proc/${pid}/stat`) };
}

/** How long {@link untilQuiet} watches for a tick, and the longest it waits in all. */
const QUIET_WINDOW_MS = 100;
const QUIET_MAX_MS = 10_000;

/**
 * Waits until `pid` used at most one tick of CPU in a {@link QUIET_WINDOW_MS} window, i.e. its
 * work is done (the proxy's analysis may still be catching up after a read: it must neither slow
 * the next read nor go uncounted). Resolves with the ms it waited, the quiet window included
 * (so `pid` went idle within that time); null if it was still busy after {@link QUIET_MAX_MS}.
 */
export async function untilQuiet(pid: number): Promise<number | null> {
  let before = processCpu(pid).totalMs;
  for (let waited = 0; waited < QUIET_MAX_MS; waited += QUIET_WINDOW_MS) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const now = processCpu(pid).totalMs;
    if (now - before <= TICK_MS) return waited + QUIET_WINDOW_MS;
    before = now;
  }
  return null;
}
