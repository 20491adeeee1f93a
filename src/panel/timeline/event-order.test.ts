import { describe, expect, it } from 'vitest';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { createAnalyzer, feed, type Exchange } from '../../core/index';
import { MAX_MARKS_PER_COLUMN, prefersEventOrder, toEventOrder } from './event-order';
import { sessionMarks } from './session-marks';

function marksOf(exchanges: Exchange[]) {
  const analyzer = createAnalyzer();
  feed(analyzer, exchanges);
  const session = analyzer.report().sessions[0]!;
  return sessionMarks({ session, events: (s) => analyzer.events(s), startTime: (s) => exchanges[s]?.startTime, endTime: (s) => exchanges[s]?.end.time });
}

/** One stream of `count` progress events, one chunk each, `gapMs` apart. */
function paced(count: number, gapMs: number): Exchange[] {
  const x = exchange({ session: 's', body: rpc.call(1) });
  x.chunks = Array.from({ length: count }, (_, i) => ({ time: x.startTime + 1 + i * gapMs, data: sse([{ id: `e${i}`, data: rpc.progress('tok-1', i + 1, i + 1) }]) }));
  x.end.time = x.startTime + 2 + count * gapMs;
  return [x];
}

describe('the event-order axis', () => {
  it('is preferred where a burst stacks more marks than a pixel column shows, and not where marks are spread', () => {
    // Each body of the scenarios arrives in one chunk: its events share one instant, as a burst does.
    expect(prefersEventOrder(marksOf(scenarios.genuine()), 700)).toBe(true);
    expect(prefersEventOrder(marksOf(paced(50, 10)), 700)).toBe(false);
    // Too many marks for event order to separate: time is kept.
    expect(prefersEventOrder(marksOf(paced(MAX_MARKS_PER_COLUMN * 700 + 1, 0)), 700)).toBe(false);
  });

  it('gives every mark its own place in arrival order, and stands each resume between its two sides', () => {
    const data = marksOf(scenarios.genuine());
    const ordered = toEventOrder(data);
    expect(ordered.axis).toBe('order');
    const places = ordered.streams.flatMap((s) => [...s.time]).sort((a, b) => a - b);
    expect(places).toEqual(Array.from({ length: data.total }, (_, i) => i));
    for (const s of ordered.streams) for (let i = 1; i < s.count; i++) expect(s.time[i]!).toBeGreaterThan(s.time[i - 1]!);
    const [bridge] = ordered.bridges;
    const [resume] = ordered.resumes;
    expect(bridge!.from.time).toBeLessThan(resume!.time);
    expect(resume!.time).toBeLessThan(bridge!.to.time);
    // The same marks, values and flags: only x changed.
    expect(ordered.streams.map((s) => [...s.seq])).toEqual(data.streams.map((s) => [...s.seq]));
  });
});
