/**
 * The timeline benchmark's workload, shared by the Chromium page and the Node fallback: synthetic
 * sessions of n events (10 streams of tool-call progress, app_seq, a few errors and resumes) and
 * the median time of a frame at fit-to-session, and zoomed to a window of about 1,000 events.
 */
import { createScratch } from '../src/panel/timeline/draw-stream';
import type { Ctx } from '../src/panel/timeline/ctx';
import { assemble, MARK_ERROR, MARK_HAS_ID, type ResumeMark, type StreamArrays, type TimelineData } from '../src/panel/timeline/marks';
import { PALETTES } from '../src/panel/timeline/palette';
import { drawTimeline } from '../src/panel/timeline/render';
import { fitView, type View } from '../src/panel/timeline/view';

const STREAMS = 10;
/** Session length in ms; events spread over it with jitter. */
const SESSION_MS = 600_000;

export function syntheticSession(events: number, seed = 1): TimelineData {
  let a = seed >>> 0;
  const random = () => ((a = (a + 0x6d2b79f5) >>> 0), (((a ^ (a >>> 15)) * (a | 1)) >>> 0) / 4294967296);
  const per = Math.ceil(events / STREAMS);
  const arrays: StreamArrays[] = [];
  for (let s = 0; s < STREAMS; s++) {
    const count = Math.min(per, events - s * per);
    const time = new Float64Array(count);
    const seq = new Float64Array(count);
    const seqKey = new Int32Array(count);
    const event = new Uint32Array(count);
    const flags = new Uint8Array(count);
    let t = (s * SESSION_MS) / (STREAMS * 4);
    const step = (SESSION_MS - t) / Math.max(1, count);
    for (let i = 0; i < count; i++) {
      t += step * (0.5 + random());
      time[i] = t;
      seq[i] = i + 1;
      event[i] = i;
      flags[i] = MARK_HAS_ID | (random() < 0.0005 ? MARK_ERROR : 0);
    }
    arrays.push({ stream: s, start: 0, end: t, streamError: false, count, time, seq, seqKey, event, flags });
  }
  const resumes: ResumeMark[] = [1, 2, 3].map((k) => ({ stream: k, of: k - 1, time: (k * SESSION_MS) / 4, lastEventId: `e${k}`, status: 200, verdict: k === 2 ? 'gap' : 'genuine', bad: k === 2 }));
  return assemble(0, arrays, ['app_seq'], resumes, []);
}

export interface FrameResult {
  events: number;
  fit: number;
  /** A window holding about 1,000 events (the same for every total). */
  zoomed: number;
}

/** Frames timed together per sample, so the browser's coarse clock (0.1 ms) does not dominate. */
const BATCH = 5;

interface Case {
  data: TimelineData;
  view: View;
  times: number[];
}

/** One sample: BATCH frames, each with a slightly moved view so nothing can be reused. */
function sample(ctx: Ctx, c: Case, n: number, width: number, height: number, flush: () => void): number {
  const scratch = createScratch();
  const start = performance.now();
  for (let f = 0; f < BATCH; f++) {
    const view = { start: c.view.start + ((n * BATCH + f) % 7) * c.view.span * 0.001, span: c.view.span };
    drawTimeline(ctx, { data: c.data, view, width, height, palette: PALETTES.light, selected: null }, scratch);
    flush();
  }
  return (performance.now() - start) / BATCH;
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/**
 * Median frame time per size and view. Sizes are sampled round-robin, so a noisy neighbour on a
 * shared machine slows every size alike instead of skewing one ratio.
 */
export function measure(ctx: Ctx, counts: readonly number[], width: number, height: number, samples: number, flush: () => void): FrameResult[] {
  const cases = counts.map((events) => {
    const data = syntheticSession(events);
    // The same ~1,000 events in view whatever the total: the cost must not follow the total.
    const span = ((data.end - data.start) * 1_000) / events;
    return {
      events,
      fit: { data, view: fitView(data.start, data.end), times: [] as number[] },
      window: { data, view: { start: (data.start + data.end) / 2 - span / 2, span }, times: [] as number[] },
    };
  });
  for (let n = -3; n < samples; n++) {
    for (const c of cases) {
      for (const k of [c.fit, c.window]) {
        const t = sample(ctx, k, n, width, height, flush);
        if (n >= 0) k.times.push(t); // the first rounds warm up the JIT and the font cache
      }
    }
  }
  return cases.map((c) => ({ events: c.events, fit: median(c.fit.times), zoomed: median(c.window.times) }));
}
