import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze as analyzeWith, type Exchange } from '../../src/core';
import { READINGS } from '../support/readings';
import { findingCodes, loadHarFixture } from '../support/har-fixtures';
import { prng, rechunk, reportText } from '../support/fixtures';

/**
 * HAR files recorded from the real @modelcontextprotocol/sdk server and client through the
 * draining load balancer (regenerate with `npm run record-fixtures`).
 */

describe.each(READINGS)('real SDK recordings, read by $name', { timeout: 120_000 }, ({ options }) => {
  const analyze = (exchanges: readonly Exchange[]) => analyzeWith(exchanges, options);
  it('genuine: the SDK replays from the shared log; the resume is genuine, nothing else is flagged', () => {
    const report = analyze(loadHarFixture('sdk-genuine.har'));
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ transport: 'streamable-http', protocolVersion: '2025-11-25' });
    expect(report.sessions[0]!.resumes).toEqual([expect.objectContaining({ verdict: 'genuine' })]);
    expect(findingCodes(report)).toEqual([]);
  });

  it('lost-buffer: the replica without the buffer answers 200 and invents app_seq 11 after 5', () => {
    const report = analyze(loadHarFixture('sdk-lost-buffer.har'));
    const [session] = report.sessions;
    expect(session!.resumes).toEqual([expect.objectContaining({ verdict: 'gap' })]);
    expect(findingCodes(report)).toEqual(['error:resume-seq-gap']);
    expect(session!.findings[0]!.message).toContain('from 5 to 11');
    const resumed = session!.streams.find((s) => s.index === session!.resumes[0]!.stream)!;
    expect(resumed).toMatchObject({ method: 'GET', status: 200, resumes: session!.resumes[0]!.of });
  });

  it('rejected: 409 resume_unavailable, then the client re-issues; the result is not lost', () => {
    const report = analyze(loadHarFixture('sdk-rejected.har'));
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['rejected']);
    expect(findingCodes(report)).toEqual(['info:resume-rejected']);
  });

});

/**
 * Issue 7: every recorded HAR (these three, the demo scenarios of sdk-scenario-fixtures.test.ts and
 * any recording added later) gives a byte-identical report under at least 1,000 random chunkings.
 * The list is read from the folder so a new recording cannot be left out.
 */
const CHUNKINGS = 1_000;
const RECORDINGS = readdirSync(join(import.meta.dirname, '../fixtures/har')).filter((f) => f.endsWith('.har')).sort();

const analyze = (exchanges: readonly Exchange[]) => analyzeWith(exchanges);

describe(`every recording under ${CHUNKINGS} random chunkings`, { timeout: 120_000 }, () => {
  it('covers all the demo scenarios the recorder writes', () => {
    expect(RECORDINGS).toEqual(expect.arrayContaining(['sdk-duplicate.har', 'sdk-empty.har', 'sdk-expired.har', 'sdk-genuine.har', 'sdk-legacy-sse.har', 'sdk-lost-buffer.har', 'sdk-rejected.har', 'sdk-stateless.har']));
  });

  it.each(RECORDINGS)('%s: the report is byte-identical under random chunkings', (name) => {
    const exchanges = loadHarFixture(name);
    const expected = reportText(analyze(exchanges));
    let runs = 0;
    fc.assert(fc.property(fc.integer(), fc.integer({ min: 1, max: 200 }), (seed, maxChunk) => {
      runs++;
      expect(reportText(analyze(rechunk(exchanges, prng(seed), maxChunk)))).toBe(expected);
    }), { numRuns: CHUNKINGS });
    expect(runs).toBeGreaterThanOrEqual(CHUNKINGS);
    console.log(`${name}: ${runs} random chunkings, ${exchanges.length} exchanges, report identical`);
  });
});
