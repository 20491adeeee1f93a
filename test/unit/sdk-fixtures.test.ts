import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, readHar, type Exchange, type Report } from '../../src/core';
import { prng, rechunk } from '../support/fixtures';

/**
 * HAR files recorded from the real @modelcontextprotocol/sdk server and client through the
 * draining load balancer (regenerate with `npm run record-fixtures`).
 */
const load = (name: string): Exchange[] => {
  const result = readHar(readFileSync(join(import.meta.dirname, '../fixtures/har', name), 'utf8'));
  if (!result.ok) throw new Error(result.reason);
  expect(result.skippedEntries).toBe(0);
  return result.exchanges;
};
const codes = (report: Report) => report.sessions.flatMap((s) => s.findings.map((f) => `${f.severity}:${f.code}`));

describe('real SDK recordings', { timeout: 120_000 }, () => {
  it('genuine: the SDK replays from the shared log; the resume is genuine, nothing else is flagged', () => {
    const report = analyze(load('sdk-genuine.har'));
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ transport: 'streamable-http', protocolVersion: '2025-11-25' });
    expect(report.sessions[0]!.resumes).toEqual([expect.objectContaining({ verdict: 'genuine' })]);
    expect(codes(report)).toEqual([]);
  });

  it('lost-buffer: the replica without the buffer answers 200 and invents app_seq 11 after 5', () => {
    const report = analyze(load('sdk-lost-buffer.har'));
    const [session] = report.sessions;
    expect(session!.resumes).toEqual([expect.objectContaining({ verdict: 'gap' })]);
    expect(codes(report)).toEqual(['error:resume-seq-gap']);
    expect(session!.findings[0]!.message).toContain('from 5 to 11');
    const resumed = session!.streams.find((s) => s.index === session!.resumes[0]!.stream)!;
    expect(resumed).toMatchObject({ method: 'GET', status: 200, resumes: session!.resumes[0]!.of });
  });

  it('rejected: 409 resume_unavailable, then the client re-issues; the result is not lost', () => {
    const report = analyze(load('sdk-rejected.har'));
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['rejected']);
    expect(codes(report)).toEqual(['info:resume-rejected']);
  });

  it('gives the same report for the recordings under 1,000 random chunkings each', () => {
    for (const name of ['sdk-genuine.har', 'sdk-lost-buffer.har', 'sdk-rejected.har']) {
      const exchanges = load(name);
      const expected = JSON.stringify(analyze(exchanges));
      fc.assert(fc.property(fc.integer(), (seed) => {
        expect(JSON.stringify(analyze(rechunk(exchanges, prng(seed), 97)))).toBe(expected);
      }), { numRuns: 1_000 });
    }
  });
});
