import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAnalyzer, type Analyzer } from './index';
import type { Exchange } from './model';
import { exchange, prng, resume, rpc, sse } from '../../test/support/fixtures';
import { scenarios } from '../../test/support/scenarios';

/**
 * A live panel asks for a report many times a second, and the report keeps what it found about
 * the settled streams between calls (report-build.ts). Whatever order the exchanges' steps
 * interleave in, a report asked after each step must equal the report of a fresh analyzer fed
 * the same steps: nothing kept from an earlier call may go stale.
 */
type Step = (analyzer: Analyzer) => void;

/** Every exchange opened in order (so indexes match), then the rest of their steps shuffled, each exchange's in its own order. */
function interleavedSteps(exchanges: readonly Exchange[], random: () => number): Step[] {
  const steps: Step[] = exchanges.map((exchange) => (analyzer) => void analyzer.open(exchange));
  const queues = exchanges.map((exchange, index) => {
    const queue: Step[] = [];
    if (exchange.status !== 0 || exchange.responseHeaders.length > 0) queue.push((a) => a.respond(index, { status: exchange.status, headers: exchange.responseHeaders }));
    for (const chunk of exchange.chunks) queue.push((a) => a.chunk(index, chunk));
    queue.push((a) => a.end(index, exchange.end));
    return queue;
  });
  for (let left = queues.reduce((n, q) => n + q.length, 0); left > 0; left--) {
    const open = queues.filter((queue) => queue.length > 0);
    steps.push(open[Math.floor(random() * open.length)]!.shift()!);
  }
  return steps;
}

/**
 * A resume whose Last-Event-ID a later stream delivers: its line links to that stream only once
 * the id arrives, so it must not be kept before then, though it ended.
 */
const cursorFromLater = (): Exchange[] => [
  ...scenarios.resultLost(),
  resume('session-a', 'later-1', { text: ': keep-alive\n\n' }),
  exchange({ session: 'session-a', body: rpc.call(2), text: sse([{ id: 'later-1', data: rpc.progress('tok-2', 1, 1) }]) }),
];

describe('live reports', () => {
  for (const [name, make] of [...Object.entries(scenarios), ['cursorFromLater', cursorFromLater] as const]) {
    it(`${name}: a report after every step equals a fresh analysis of the steps so far`, () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const steps = interleavedSteps(make(), prng(seed));
          const live = createAnalyzer();
          steps.forEach((step, done) => {
            step(live);
            const fresh = createAnalyzer();
            for (const earlier of steps.slice(0, done + 1)) earlier(fresh);
            expect(JSON.stringify(live.report())).toBe(JSON.stringify(fresh.report()));
          });
        }),
        { numRuns: 25 },
      );
    });
  }
});
