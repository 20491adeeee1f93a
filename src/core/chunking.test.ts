import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from './index';
import { prng, rechunk, reportText } from '../../test/support/fixtures';
import { scenarios } from '../../test/support/scenarios';

/**
 * The report must not depend on how the network cut the bodies: a resume verdict that flips with
 * TCP segment sizes would be worse than none. Every scenario, cut at random byte offsets (through
 * UTF-8 sequences, CRLFs and field names), must give a byte-identical report.
 */
/** Issue 7: at least 1,000 random chunkings per fixture. */
const RUNS = 1_000;

describe(`chunking invariance (${RUNS} random chunkings per scenario)`, { timeout: 120_000 }, () => {
  for (const [name, make] of Object.entries(scenarios)) {
    it(`${name}: the report is byte-identical under random chunkings`, () => {
      const exchanges = make();
      const expected = reportText(analyze(exchanges));
      let runs = 0;
      fc.assert(
        fc.property(fc.integer(), fc.integer({ min: 1, max: 200 }), (seed, maxChunk) => {
          runs++;
          expect(reportText(analyze(rechunk(exchanges, prng(seed), maxChunk)))).toBe(expected);
        }),
        { numRuns: RUNS },
      );
      expect(runs).toBeGreaterThanOrEqual(RUNS);
      console.log(`${name}: ${runs} random chunkings, report identical`);
    });
  }
});
