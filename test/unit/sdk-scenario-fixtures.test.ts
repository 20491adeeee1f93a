import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, readHar, type Exchange, type Report } from '../../src/core';

/**
 * The demo's other scenarios, recorded like sdk-fixtures.test.ts's from the real
 * @modelcontextprotocol/sdk servers and clients (regenerate with `npm run record-fixtures`).
 */
const load = (name: string): Exchange[] => {
  const result = readHar(readFileSync(join(import.meta.dirname, '../fixtures/har', name), 'utf8'));
  if (!result.ok) throw new Error(result.reason);
  expect(result.skippedEntries).toBe(0);
  return result.exchanges;
};
const codes = (report: Report) => report.sessions.flatMap((s) => s.findings.map((f) => `${f.severity}:${f.code}`));

describe('real SDK recordings of the demo scenarios', { timeout: 120_000 }, () => {
  it('expired: the resume lands on a replica without the session (404); the re-issue on a new session saves the result', () => {
    const report = analyze(load('sdk-expired.har'));
    expect(report.sessions.map((s) => s.resumes.map((r) => r.verdict))).toEqual([['expired'], []]);
    expect(codes(report)).toEqual(['info:session-expired']);
  });

  it('empty: the resume answers 200 with keep-alives only; the client re-issues', () => {
    const report = analyze(load('sdk-empty.har'));
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['empty']);
    expect(codes(report)).toEqual(['warning:resume-empty']);
  });

  it('duplicate: the store replays from two events too early; ids and app_seq repeat', () => {
    const report = analyze(load('sdk-duplicate.har'));
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['duplicate']);
    expect(new Set(codes(report))).toEqual(new Set(['error:resume-seq-regress', 'error:duplicate-event-id']));
  });

  it('legacy-sse: one http+sse session from the SDK SSE transports, nothing flagged', () => {
    const report = analyze(load('sdk-legacy-sse.har'));
    expect(report.sessions.map((s) => s.transport)).toEqual(['http+sse']);
    expect(report.sessions[0]!.streams[0]!.events).toBeGreaterThan(12);
    expect(codes(report)).toEqual([]);
  });

  it('stateless: one 2026-07-28 stateless session; its Last-Event-ID gets 405 and is flagged', () => {
    const report = analyze(load('sdk-stateless.har'));
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ transport: 'stateless', protocolVersion: '2026-07-28' });
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['rejected']);
    expect(new Set(codes(report))).toEqual(new Set(['warning:resume-on-stateless', 'info:resume-rejected']));
  });
});
