/**
 * panel-main-thread: how busy the DevTools panel's main thread is while the inspected page
 * receives 1,000 MCP events per second, in Chromium with the real extension (dist/chrome) and the
 * panel open (target <= 30% of the time). CDP's Performance.getMetrics on the panel's target, in
 * the thread's own time (`timeDomain: 'threadTicks'`): TaskDuration, the time the main thread spent
 * running tasks, over the wall time between two readings, one as the page starts reading the
 * stream and one when it has read the last event. The baseline, in the same run: the same panel
 * left idle for as long.
 *
 * The panel must also have shown every event by the end (the row fails otherwise): a panel that
 * fell behind would look idle.
 *
 * Thread time, not wall time: measured on the wall clock, a task on a machine with more runnable
 * threads than cores also counts the time the panel's thread waited for a core, which is the
 * machine's load, not the panel's work. The detail gives the wall-clock share beside it (a second
 * pair of readings in the default time domain), and the machine's load average.
 *
 *   npx tsx bench/panel-main-thread.ts [--smoke]
 */
import { availableParallelism, loadavg } from 'node:os';
import type { CDPSession, Page } from 'puppeteer-core';
import { launchChromium, openPanel } from '../test/e2e/support/chromium';
import { buildExtension } from '../test/e2e/support/extension-build';
import { waitForPanel } from '../test/e2e/support/panel-queries';
import { runIfMain } from './cli-browser';
import { row, type BenchRow, type BenchScale } from './row';
import { SESSION, startBenchServer } from './sse-server-browser';

const SCALES = {
  smoke: { rate: 1_000, events: 2_000 },
  full: { rate: 1_000, events: 10_000 },
} as const;
/** The page of the panel, as DevTools loads it (src/entries/panel.html). */
const PANEL_URL = 'src/entries/panel.html';

/** Seconds of main-thread work by kind, and of wall time, between two readings. */
export interface Busy {
  wall: number;
  task: number;
  script: number;
  layout: number;
  style: number;
  /** CPU time of the main thread. */
  thread: number;
  /** Task time on the wall clock: with the waits for a core on a loaded machine. */
  wallTask: number;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  return Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
}

/**
 * The panel's main-thread time while `run` runs, in thread time (`cdp`) and on the wall clock
 * (`wall`, a session on the same target in the default time domain).
 */
async function busyDuring(cdp: CDPSession, wall: CDPSession, run: () => Promise<unknown>): Promise<Busy> {
  const [a, aw] = [await metrics(cdp), await metrics(wall)];
  await run();
  const [b, bw] = [await metrics(cdp), await metrics(wall)];
  const d = (name: string) => (b[name] ?? NaN) - (a[name] ?? NaN);
  return {
    wall: d('Timestamp'), task: d('TaskDuration'), script: d('ScriptDuration'), layout: d('LayoutDuration'), style: d('RecalcStyleDuration'),
    thread: d('ThreadTime'), wallTask: (bw.TaskDuration ?? NaN) - (aw.TaskDuration ?? NaN),
  };
}

/** Reads `/paced` to its end in the page, as an MCP client would. Text: no helper of the transpiler sneaks in. */
const readPaced = (rate: number, events: number) => `(async () => {
  const response = await fetch('/paced?rate=${rate}&events=${events}', { headers: { accept: 'text/event-stream', 'mcp-session-id': '${SESSION}' } });
  const reader = response.body.getReader();
  for (;;) if ((await reader.read()).done) return true;
})()`;

export interface MainThread {
  idle: Busy;
  live: Busy;
  events: number;
  /** Events the panel showed once the page had read them all. */
  shown: number;
}

export async function runPanelMainThread(scale: BenchScale): Promise<{ row: BenchRow; result: MainThread }> {
  const { rate, events } = SCALES[scale];
  const dir = await buildExtension('chrome');
  const server = await startBenchServer(0);
  const chromium = await launchChromium(dir);
  let result: MainThread;
  try {
    const page: Page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${server.origin}/`);
    const target = chromium.browser.targets().find((t) => t.url().includes(PANEL_URL));
    if (!target) throw new Error('panel-main-thread: no target for the panel page');
    const cdp = await target.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const wall = await target.createCDPSession();
    await wall.send('Performance.enable');
    const seconds = events / rate;
    // A measurement window, not a wait for a peer: the panel has nothing to do for as long as the run takes.
    const idle = await busyDuring(cdp, wall, () => new Promise((done) => setTimeout(done, seconds * 1000)));
    const live = await busyDuring(cdp, wall, () => page.evaluate(readPaced(rate, events)));
    const state = await waitForPanel(panel, `(s) => s.streams.some((x) => x.end === 'complete' && x.events >= ${events})`, 60_000).catch(() => null);
    const shown = state ? Math.max(...state.streams.map((x) => x.events)) : 0;
    result = { idle, live, events, shown };
  } finally {
    await chromium.close();
    await server.close();
  }
  const pct = (b: Busy, part: number) => (100 * part) / b.wall;
  const { idle, live } = result;
  const f = (x: number) => x.toFixed(1);
  const caughtUp = result.shown >= events;
  const measured = row({
    name: 'panel-main-thread',
    value: pct(live, live.task),
    target: 30,
    better: 'lower',
    unit: '%',
    baseline: 'the same panel idle for as long',
    detail: `${events.toLocaleString('en')} events at ${rate.toLocaleString('en')}/s over ${f(live.wall)} s, real extension, panel open: main thread busy ${f(pct(live, live.task))}% ` +
      `(script ${f(pct(live, live.script))}%, layout ${f(pct(live, live.layout))}%, style ${f(pct(live, live.style))}%; on the wall clock ${f(pct(live, live.wallTask))}%); ` +
      `idle ${f(pct(idle, idle.task))}%; the panel showed ${result.shown.toLocaleString('en')} events; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores` +
      (caughtUp ? '' : ' (FAIL: it fell behind)'),
  });
  return { row: { ...measured, pass: measured.pass && caughtUp }, result };
}

export async function measurePanelMainThread(scale: BenchScale): Promise<BenchRow[]> {
  return [(await runPanelMainThread(scale)).row];
}

await runIfMain(import.meta.url, measurePanelMainThread);
