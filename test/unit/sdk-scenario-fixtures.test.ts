import { describe, expect, it } from 'vitest';
import { analyze as analyzeWith, type Exchange } from '../../src/core';
import { READINGS } from '../support/readings';
import { findingCodes, loadHarFixture } from '../support/har-fixtures';

/**
 * The demo's other scenarios, recorded like sdk-fixtures.test.ts's from the real
 * @modelcontextprotocol/sdk servers and clients (regenerate with `npm run record-fixtures`).
 */

describe.each(READINGS)('real SDK recordings of the demo scenarios, read by $name', { timeout: 120_000 }, ({ options }) => {
  const analyze = (exchanges: readonly Exchange[]) => analyzeWith(exchanges, options);
  it('expired: the resume lands on a replica without the session (404); the re-issue on a new session saves the result', () => {
    const report = analyze(loadHarFixture('sdk-expired.har'));
    expect(report.sessions.map((s) => s.resumes.map((r) => r.verdict))).toEqual([['expired'], []]);
    expect(findingCodes(report)).toEqual(['info:session-expired']);
  });

  it('empty: the resume answers 200 with keep-alives only; the client re-issues', () => {
    const report = analyze(loadHarFixture('sdk-empty.har'));
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['empty']);
    expect(findingCodes(report)).toEqual(['warning:resume-empty']);
  });

  it('duplicate: the store replays from two events too early; ids and app_seq repeat', () => {
    const report = analyze(loadHarFixture('sdk-duplicate.har'));
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['duplicate']);
    expect(new Set(findingCodes(report))).toEqual(new Set(['error:resume-seq-regress', 'error:duplicate-event-id']));
  });

  it('legacy-sse: one http+sse session from the SDK SSE transports, nothing flagged', () => {
    const report = analyze(loadHarFixture('sdk-legacy-sse.har'));
    expect(report.sessions.map((s) => s.transport)).toEqual(['http+sse']);
    expect(report.sessions[0]!.streams[0]!.events).toBeGreaterThan(12);
    expect(findingCodes(report)).toEqual([]);
  });

  it('stateless: one 2026-07-28 stateless session; its Last-Event-ID gets 405 and is flagged', () => {
    const report = analyze(loadHarFixture('sdk-stateless.har'));
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ transport: 'stateless', protocolVersion: '2026-07-28' });
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['rejected']);
    expect(new Set(findingCodes(report))).toEqual(new Set(['warning:resume-on-stateless', 'info:resume-rejected']));
  });
});
