import { afterEach, describe, expect, it } from 'vitest';
import { createBusyGauge } from './busy-gauge';
import { createCounters } from './caps';
import { createLiveAnalysis, type AnalysisPacing, type LiveAnalysis } from './live-analysis';
import { createRecording, type Recording } from './recording';
import { openSpool, type Spool } from './spool';

const bytes = (text: string) => new TextEncoder().encode(text);
const sse = { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }, { name: 'mcp-session-id', value: 's1' }] };

const running: { spool: Spool; analysis: LiveAnalysis }[] = [];
afterEach(async () => {
  for (const { spool, analysis } of running.splice(0)) {
    await analysis.close();
    spool.close();
  }
});

function start(pacing: AnalysisPacing): { recording: Recording; analysis: LiveAnalysis } {
  const spool = openSpool();
  const recording = createRecording(createCounters(), spool);
  const analysis = createLiveAnalysis(recording, spool, {}, pacing);
  running.push({ spool, analysis });
  return { recording, analysis };
}

/** One stream of `events` progress events, recorded whole. */
function recordStream(recording: Recording, events: number): void {
  const rec = recording.start({ method: 'GET', url: 'http://127.0.0.1/mcp', headers: [{ name: 'mcp-session-id', value: 's1' }], startTime: 1 })!;
  recording.requestDone(rec, undefined);
  recording.respond(rec, sse);
  for (let i = 1; i <= events; i++) recording.chunk(rec, bytes(`id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i}}}\n\n`), 10 + i);
  recording.end(rec, { state: 'complete', time: 20 });
}
const eventsIn = (report: Awaited<ReturnType<LiveAnalysis['report']>>) => report.sessions.flatMap((s) => s.streams).reduce((n, s) => n + s.events, 0);

describe('the live analysis beside a busy forwarding thread', () => {
  it('is handed nothing while the forwarding thread is busy, and all of it once it is not', async () => {
    let busy = false;
    let looks = 0;
    let lookedThrice!: () => void;
    const thrice = new Promise<void>((resolve) => (lookedThrice = resolve));
    const { recording, analysis } = start({
      busy: () => {
        if (busy && ++looks === 3) lookedThrice();
        return busy;
      },
      maxWaitMs: 60_000,
    });
    // The worker is up and answering before the burst, so an answer held back is the pacing's doing.
    expect(eventsIn(await analysis.report())).toBe(0);

    busy = true;
    recordStream(recording, 3);
    let answered = false;
    const report = analysis.report().then((r) => ((answered = true), r));
    await Promise.race([thrice, report]);
    expect(answered).toBe(false);

    busy = false;
    expect(eventsIn(await report)).toBe(3);
  });

  it('waits no longer than its bound, however busy the forwarding thread stays', async () => {
    const maxWaitMs = 150;
    const { recording, analysis } = start({ busy: () => true, maxWaitMs });
    await analysis.report();
    const recordedAt = performance.now();
    recordStream(recording, 3);
    expect(eventsIn(await analysis.report())).toBe(3);
    expect(performance.now() - recordedAt).toBeGreaterThanOrEqual(maxWaitMs);
  });
});

describe('the busy gauge', () => {
  it('says busy after the thread worked through a stretch, and not after it waited through one', async () => {
    const busy = createBusyGauge();
    busy();
    const until = performance.now() + 40;
    while (performance.now() < until); // the thread working, as a burst keeps it
    expect(busy()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 40)); // the thread waiting, as between bursts
    expect(busy()).toBe(false);
  });
});
