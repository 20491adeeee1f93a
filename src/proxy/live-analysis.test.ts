import { afterEach, describe, expect, it } from 'vitest';
import { createBurstGauge } from './burst-gauge';
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

describe('the live analysis beside a burst', () => {
  it('is handed nothing while a burst passes, and all of it once it is over', async () => {
    let burst = false;
    let looks = 0;
    let lookedThrice!: () => void;
    const thrice = new Promise<void>((resolve) => (lookedThrice = resolve));
    const { recording, analysis } = start({
      gauge: {
        mark: () => undefined,
        burst: () => {
          if (burst && ++looks === 3) lookedThrice();
          return burst;
        },
      },
      maxWaitMs: 60_000,
    });
    // The worker is up and answering before the burst, so an answer held back is the pacing's doing.
    expect(eventsIn(await analysis.report())).toBe(0);

    burst = true;
    recordStream(recording, 3);
    let answered = false;
    const report = analysis.report().then((r) => ((answered = true), r));
    await Promise.race([thrice, report]);
    expect(answered).toBe(false);

    burst = false;
    expect(eventsIn(await report)).toBe(3);
  });

  it('waits no longer than its bound, however long the burst goes on', async () => {
    const maxWaitMs = 150;
    const { recording, analysis } = start({ gauge: { mark: () => undefined, burst: () => true }, maxWaitMs });
    await analysis.report();
    const recordedAt = performance.now();
    recordStream(recording, 3);
    expect(eventsIn(await analysis.report())).toBe(3);
    expect(performance.now() - recordedAt).toBeGreaterThanOrEqual(maxWaitMs);
  });
});

describe('the burst gauge', () => {
  it('says burst when the bytes since the last look came faster than its rate, on average', () => {
    let total = 0;
    let at = 0;
    const { burst } = createBurstGauge(() => total, 1_000_000, () => at);
    (total += 60_000), (at += 50);
    expect(burst()).toBe(true); // 1.2 MB/s over the last 50 ms
    (total += 40_000), (at += 50);
    expect(burst()).toBe(false); // 0.8 MB/s
    (total += 200_000), (at += 10_000);
    expect(burst()).toBe(false); // a quiet stretch, then a chunk: 20 kB/s over the stretch
    expect(burst()).toBe(false); // nothing since
  });

  it('measures from its mark, so that a burst after a quiet stretch is seen as one', () => {
    let total = 0;
    let at = 0;
    const gauge = createBurstGauge(() => total, 1_000_000, () => at);
    at += 60_000;
    gauge.mark();
    (total += 20_000), (at += 10);
    expect(gauge.burst()).toBe(true); // 2 MB/s since the mark, though 333 B/s since the gauge began
    total += 5_000;
    expect(gauge.burst()).toBe(true); // at once: measured over a millisecond at least, 5 MB/s
  });
});
