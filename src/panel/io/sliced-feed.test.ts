import { describe, expect, it } from 'vitest';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { createAnalyzer, feed, type Exchange } from '../../core/index';
import { createSlicedFeed } from './sliced-feed';

/** Tool calls of `events` progress events each, every body one chunk (longer than a feed piece). */
function calls(count: number, events: number): Exchange[] {
  return Array.from({ length: count }, (_, call) =>
    exchange({
      session: 's',
      body: rpc.call(call),
      start: 1_700_000_000_000 + call * 1000,
      text: sse([...Array.from({ length: events }, (_, i) => ({ id: `${call}_${i}`, data: rpc.progress(`tok-${call}`, i + 1) })), { id: `${call}_end`, data: rpc.result(call) }]),
    }),
  );
}

const totalEvents = (analyzer: ReturnType<typeof createAnalyzer>, streams: number) => Array.from({ length: streams }, (_, i) => analyzer.events(i).length).reduce((a, b) => a + b, 0);

describe('the sliced feed', () => {
  it('gives the analysis feed gives, and tells its viewer how many events each refresh takes in', async () => {
    const exchanges = calls(8, 1_500);
    const analyzer = createAnalyzer();
    const looks: { fresh: number; events: number }[] = [];
    let fresh = 0;
    const sliced = createSlicedFeed(analyzer, {
      due: (n) => ((fresh = n), n >= 2_000),
      refresh: () => looks.push({ fresh, events: totalEvents(analyzer, exchanges.length) }),
    });
    sliced.add(exchanges.slice(0, 4));
    sliced.add(exchanges.slice(4));
    await sliced.drained();

    const whole = createAnalyzer();
    feed(whole, exchanges);
    expect(analyzer.report()).toEqual(whole.report());
    // Each refresh was told exactly the events completed since the one before.
    expect(looks.length).toBeGreaterThan(0);
    looks.forEach((look, i) => expect(look.fresh).toBe(look.events - (looks[i - 1]?.events ?? 0)));
    expect(looks.every((look) => look.fresh >= 2_000)).toBe(true);
  });

  it('stops when cancelled: no refresh after, and the rest is never fed', async () => {
    const exchanges = calls(4, 1_500);
    const analyzer = createAnalyzer();
    let refreshes = 0;
    const sliced = createSlicedFeed(analyzer, { due: () => true, refresh: () => void refreshes++ });
    sliced.add(exchanges);
    sliced.cancel();
    await sliced.drained();
    expect(refreshes).toBe(0);
    expect(totalEvents(analyzer, exchanges.length)).toBe(0);
  });
});
