/**
 * The tasks of a page's main thread from a Chromium trace (puppeteer's `page.tracing`, category
 * `disabled-by-default-devtools.timeline`): each `RunTask` with its wall time (`dur`) and its
 * thread time (`tdur`, the CPU time the thread ran it). On a machine with more runnable threads
 * than cores, a task's wall time also counts the time its thread waited for a core, which is the
 * machine's load, not the page's work; its thread time does not.
 */

/** The category whose `RunTask` events carry both durations. */
export const TASK_TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline'];

export interface TaskTimes {
  /** The longest task by thread time, and that task's wall time. */
  longestThreadMs: number;
  wallOfLongestMs: number;
  /** The longest task by wall time. */
  longestWallMs: number;
  /** Tasks whose thread time went over `overMs`. */
  over: number;
}

interface TraceEvent { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }

/**
 * The main thread's tasks in `trace`: of the renderers' main threads (`CrRendererMain`), the
 * busiest one, which is the page under test (others in the trace idle).
 */
export function mainThreadTasks(trace: Uint8Array, overMs: number): TaskTimes {
  const events = (JSON.parse(new TextDecoder().decode(trace)) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !mains.has(`${e.pid}:${e.tid}`)) continue;
    const key = `${e.pid}:${e.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const busy = (tasks: TraceEvent[]) => tasks.reduce((sum, t) => sum + (t.tdur ?? 0), 0);
  const tasks = [...byThread.values()].sort((a, b) => busy(b) - busy(a))[0] ?? [];
  let longest: TraceEvent | undefined;
  let longestWall = 0;
  let over = 0;
  for (const t of tasks) {
    if ((t.tdur ?? 0) > (longest?.tdur ?? -1)) longest = t;
    longestWall = Math.max(longestWall, t.dur ?? 0);
    if ((t.tdur ?? 0) / 1000 > overMs) over++;
  }
  return { longestThreadMs: (longest?.tdur ?? 0) / 1000, wallOfLongestMs: (longest?.dur ?? 0) / 1000, longestWallMs: longestWall / 1000, over };
}
