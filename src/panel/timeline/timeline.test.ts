import { describe, expect, it } from 'vitest';
import { scenarios } from '../../../test/support/scenarios';
import { analyze, createAnalyzer, feed } from '../../core/index';
import { MARK_DESYNC, MARK_ERROR } from './marks';
import { stepMark } from './navigation';
import { accumulateColumns, buildPyramid, createPyramidBuilder, orIntoPyramid, seqRange } from './pyramid';
import { sessionMarks } from './session-marks';
import { fitView, zoomView } from './view';
import { createScratch } from './draw-stream';
import { hitTest } from './hit-test';
import { layoutOf, rowY } from './layout';
import { lowerBound, upperBound } from './bounds';

function marksOf(name: keyof typeof scenarios) {
  const exchanges = scenarios[name]();
  const analyzer = createAnalyzer();
  feed(analyzer, exchanges);
  const session = analyzer.report().sessions[0]!;
  return sessionMarks({
    session,
    events: (s) => analyzer.events(s),
    startTime: (s) => exchanges[s]?.startTime,
    endTime: (s) => exchanges[s]?.end.time,
  });
}

describe('timeline data', () => {
  it('marks the lost-buffer resume as bad, with a red bridge from app_seq 17 to 31 and the finding event in red', () => {
    const data = marksOf('lostBuffer');
    expect(data.resumes).toEqual([expect.objectContaining({ stream: 2, of: 1, verdict: 'gap', bad: true, tone: 'error', status: 200 })]);
    expect(data.bridges).toEqual([{ resume: 2, bad: true, from: expect.objectContaining({ stream: 1, seq: 17 }), to: expect.objectContaining({ stream: 2, event: 0, seq: 31 }) }]);
    // The arithmetic the marker shows: from the finding's evidence where the core gives it,
    // else the values drawn on either side.
    expect(data.resumes[0]).toMatchObject({ lastSeen: 17, expected: 18, got: 31 });
    const resumed = data.streams.find((s) => s.stream === 2)!;
    expect(resumed.flags[0]! & MARK_ERROR).toBeTruthy();
    expect(resumed.flags[0]! & MARK_DESYNC).toBeTruthy();
    expect(data.seqMin).toBe(1);
    expect(data.seqMax).toBe(32);
  });

  it('a live refresh rebuilds only the streams that changed, and gives what a fresh build gives', () => {
    const exchanges = scenarios.lostBuffer();
    const last = exchanges.at(-1)!;
    // Everything but the resume's last chunk, as a live capture has it mid-stream.
    const live = () => {
      const analyzer = createAnalyzer();
      feed(analyzer, [...exchanges.slice(0, -1), { ...last, chunks: last.chunks.slice(0, -1), end: { state: 'open' } }]);
      return analyzer;
    };
    const input = (analyzer: ReturnType<typeof createAnalyzer>) => ({
      session: analyzer.report().sessions[0]!,
      events: (s: number) => analyzer.events(s),
      startTime: (s: number) => exchanges[s]?.startTime,
      endTime: (s: number) => (s === exchanges.length - 1 ? undefined : exchanges[s]?.end.time),
    });
    const analyzer = live();
    const before = sessionMarks(input(analyzer));
    analyzer.chunk(exchanges.length - 1, last.chunks.at(-1)!);
    const after = sessionMarks(input(analyzer));
    const open = exchanges.length - 1;
    for (const stream of after.streams) {
      const earlier = before.streams.find((s) => s.stream === stream.stream)!;
      if (stream.stream === open) expect(stream.time).not.toBe(earlier.time);
      else expect(stream.time, `stream ${stream.stream} reused`).toBe(earlier.time);
    }
    // Reuse and growth must not change the picture: compare with the same state built from nothing.
    const again = live();
    again.chunk(exchanges.length - 1, last.chunks.at(-1)!);
    const fresh = sessionMarks(input(again));
    const shape = (d: typeof after) => d.streams.map((s) => [s.stream, s.count, [...s.time], [...s.event], [...s.seq], [...s.seqKey], [...s.flags], s.seqKeys, s.end]);
    expect(after.streams.find((s) => s.stream === open)!.count).toBeGreaterThan(before.streams.find((s) => s.stream === open)!.count);
    expect(shape(after)).toEqual(shape(fresh));
  });

  it('a genuine resume is not bad: its two sides are joined by a green bridge, and no mark is a desync', () => {
    const data = marksOf('genuine');
    expect(data.resumes.map((r) => [r.verdict, r.bad, r.tone])).toEqual([['genuine', false, 'ok']]);
    expect(data.bridges).toHaveLength(1);
    expect(data.bridges[0]!.bad).toBe(false);
    expect(data.bridges[0]!.to.seq).toBe(data.bridges[0]!.from.seq + 1);
    expect(data.streams.every((s) => s.flags.every((f) => (f & MARK_DESYNC) === 0))).toBe(true);
  });

  it('arrow keys step through every mark in time order, and back', () => {
    const data = marksOf('genuine');
    const forward = [];
    for (let m = stepMark(data, null, 1); m; m = stepMark(data, m, 1)) forward.push(m);
    expect(forward).toHaveLength(data.total);
    const backward = [];
    for (let m = stepMark(data, null, -1); m; m = stepMark(data, m, -1)) backward.push(m);
    expect(backward.reverse()).toEqual(forward);
  });

  it('finds the mark under the pointer', () => {
    const data = marksOf('lostBuffer');
    const view = fitView(data.start, data.end);
    const s = data.streams.find((x) => x.stream === 2)!;
    const layout = layoutOf(800, 240, data.rows);
    const x = layout.plotLeft + ((s.time[0]! - view.start) / view.span) * layout.plotWidth;
    // Lane 1 row of the stream: the mark is within a few pixels.
    expect(hitTest(data, view, 800, 240, x + 2, rowY(layout, s.row) + 3)).toEqual({ stream: 2, event: 0 });
    expect(hitTest(data, view, 800, 240, x, layout.lane1Top - 30)).toBeNull();
  });
});

describe('level of detail', () => {
  it('a pyramid grown in steps equals one built at once, and a flag added later reaches every block above', () => {
    const n = 5000;
    const seq = new Float64Array(n).map((_, i) => (i % 7 === 0 ? NaN : (i * 37) % 101));
    const flags = new Uint8Array(n).map((_, i) => (i % 13 === 0 ? 2 : 1));
    const grown = createPyramidBuilder();
    let pyramid = grown.extend(seq, flags, 0);
    for (let count = 1; count <= n; count += 1 + (count % 97)) pyramid = grown.extend(seq, flags, count);
    pyramid = grown.extend(seq, flags, n);
    const plain = (p: typeof pyramid) => p.map((l) => [[...l.min], [...l.max], [...l.flags]]);
    expect(plain(pyramid)).toEqual(plain(buildPyramid(seq, flags, n)));
    orIntoPyramid(pyramid, 3000, MARK_DESYNC);
    // Mark 3000 lies in a complete block on every level (the top one is marks 0-4,095).
    pyramid.forEach((level, k) => expect(level.flags[3000 >> (k + 1)]! & MARK_DESYNC, `level ${k}`).toBeTruthy());
  });

  it('finds the sequence range from the pyramid as a pass over every mark does', () => {
    for (const n of [0, 1, 2, 3, 7, 64, 1000, 4099]) {
      const seq = new Float64Array(n).map((_, i) => (i % 5 === 0 ? NaN : ((i * 7919) % 1009) - 500));
      const values = [...seq].filter((v) => v === v);
      const expected = values.length === 0 ? { min: NaN, max: NaN } : { min: Math.min(...values), max: Math.max(...values) };
      expect(seqRange(seq, buildPyramid(seq, new Uint8Array(n), n), n), `n = ${n}`).toEqual(expected);
    }
  });

  it('folds marks into the same columns, minima, maxima and flags as a mark-by-mark pass', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (const n of [1, 2, 3, 17, 1000, 4099]) {
      const time = new Float64Array(n);
      const seq = new Float64Array(n);
      const flags = new Uint8Array(n);
      let t = 0;
      for (let i = 0; i < n; i++) {
        t += random() < 0.1 ? random() * 500 : random();
        time[i] = t;
        seq[i] = random() < 0.2 ? NaN : Math.floor(random() * 100);
        flags[i] = random() < 0.01 ? 2 : 1;
      }
      const pyramid = buildPyramid(seq, flags, n);
      for (const width of [7, 300]) {
        const view = zoomView(fitView(0, t), 0.7, 0.3);
        const pxPerMs = width / view.span;
        const lo = lowerBound(time, view.start);
        const hi = upperBound(time, view.start + view.span);
        if (hi <= lo) continue;
        const out = createScratch();
        Object.assign(out, { min: new Float64Array(width), max: new Float64Array(width), flags: new Uint8Array(width), has: new Uint8Array(width) });
        accumulateColumns(time, seq, flags, pyramid, lo, hi, view.start, pxPerMs, width, out);
        const expected = new Map<number, { min: number; max: number; flags: number }>();
        for (let i = lo; i < hi; i++) {
          const c = Math.min(width - 1, Math.max(0, Math.floor((time[i]! - view.start) * pxPerMs)));
          const e = expected.get(c) ?? { min: NaN, max: NaN, flags: 0 };
          e.flags |= flags[i]!;
          if (!(seq[i]! >= e.min)) e.min = seq[i]! === seq[i]! ? seq[i]! : e.min;
          if (!(seq[i]! <= e.max)) e.max = seq[i]! === seq[i]! ? seq[i]! : e.max;
          expected.set(c, e);
        }
        // Blocks are attributed to their first mark's column; a block never spans a full pixel,
        // so a mark lands at most one column away from where the exact pass puts it.
        let marked = 0;
        for (let c = 0; c < width; c++) if (out.has[c]) marked++;
        expect(Math.abs(marked - expected.size)).toBeLessThanOrEqual(Math.ceil(expected.size * 0.5));
        const allFlags = [...expected.values()].reduce((f, e) => f | e.flags, 0);
        let outFlags = 0;
        for (let c = 0; c < width; c++) if (out.has[c]) outFlags |= out.flags[c]!;
        expect(outFlags).toBe(allFlags);
        const values = [...expected.values()].flatMap((e) => (e.min === e.min ? [e.min, e.max] : []));
        let lowest = Infinity;
        let highest = -Infinity;
        for (let c = 0; c < width; c++) if (out.has[c] && out.min[c] === out.min[c]) (lowest = Math.min(lowest, out.min[c]!)), (highest = Math.max(highest, out.max[c]!));
        if (values.length > 0) expect([lowest, highest]).toEqual([Math.min(...values), Math.max(...values)]);
      }
    }
  });

  it('agrees with the report on what it draws (every event of the session has a mark)', () => {
    const data = marksOf('interleavedIds');
    expect(data.total).toBe(analyze(scenarios.interleavedIds()).summary.events);
  });
});
