import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type Report, type StreamReport } from '../../src/core';
import { prng, rechunk, reportText } from '../support/fixtures';
import { loadHarFixture } from '../support/har-fixtures';

/**
 * What the analysis makes of the HAR files the real writers wrote (test/fixtures/har/writers,
 * `npm run record-writer-fixtures`): sessions, streams, events, ends and resume links. The
 * verdicts that need the rules of issue 18 are in writer-verdicts.test.ts.
 */
const WRITER_FIXTURES = readdirSync(join(import.meta.dirname, '../fixtures/har/writers')).filter((f) => f.endsWith('.har')).sort();
const report = (name: string): Report => analyze(loadHarFixture(`writers/${name}.har`));
const only = (r: Report) => {
  expect(r.sessions).toHaveLength(1);
  return r.sessions[0]!;
};
/** The tool call's stream is the POST a resume points at, else the SSE POST after initialize. */
const resumeOf = (streams: readonly StreamReport[]) => streams.find((s) => s.lastEventId !== null);
const summary = (s: StreamReport | undefined) => s && { method: s.method, status: s.status, events: s.events, end: s.end };

describe('writer fixtures: sessions', () => {
  it.each([
    ['devtools-hono-genuine', '2025-11-25'], ['devtools-hono-lost-buffer', '2025-11-25'], ['devtools-mcp-lite-genuine', '2025-06-18'],
    ['playwright-hono-genuine', '2025-11-25'], ['playwright-hono-lost-buffer', '2025-11-25'], ['playwright-mcp-lite-genuine', '2025-06-18'], ['playwright-sdk-genuine', '2025-11-25'],
    ['chrome-har-hono-genuine', '2025-11-25'], ['chrome-har-hono-lost-buffer', '2025-11-25'], ['chrome-har-mcp-lite-genuine', '2025-06-18'],
    ['firefox-hono-genuine', '2025-11-25'], ['firefox-hono-lost-buffer', '2025-11-25'], ['firefox-mcp-lite-genuine', '2025-06-18'],
    ['mitmproxy-hono-genuine', '2025-11-25'],
  ])('%s: one Streamable HTTP session, revision %s', (name, revision) => {
    expect(only(report(name))).toMatchObject({ transport: 'streamable-http', protocolVersion: revision });
  });
});

describe('writer fixtures: the drained tool call and its resume', () => {
  it.each([
    // DevTools keeps the reset stream's text: the resume is linked to it and checked.
    ['devtools-hono-genuine', { events: 6, end: 'reset' }, 7],
    ['devtools-hono-lost-buffer', { events: 6, end: 'reset' }, 2],
    // Firefox keeps the partial body but marks no reset.
    ['firefox-hono-genuine', { events: 6, end: 'unknown' }, 7],
    ['firefox-hono-lost-buffer', { events: 6, end: 'unknown' }, 2],
  ] as const)('%s: the call kept its events, and the resume links to it', (name, call, replayed) => {
    const session = only(report(name));
    const resume = resumeOf(session.streams)!;
    const original = session.streams.find((s) => s.index === resume.resumes)!;
    expect(summary(original)).toEqual({ method: 'POST', status: 200, ...call });
    expect(summary(resume)).toMatchObject({ method: 'GET', status: 200, events: replayed });
    expect(session.resumes).toEqual([expect.objectContaining({ stream: resume.index, of: original.index })]);
  });

  it.each([
    ['playwright-hono-genuine', 7],
    ['playwright-hono-lost-buffer', 2],
    ['playwright-sdk-genuine', 8],
  ] as const)('%s: Playwright kept no event of the reset call; its resume cannot be linked', (name, replayed) => {
    const session = only(report(name));
    const calls = session.streams.filter((s) => s.method === 'POST' && s.end === 'reset' && s.status === 200);
    expect(calls.map((s) => s.events)).toEqual(calls.map(() => 0));
    expect(summary(resumeOf(session.streams))).toEqual({ method: 'GET', status: 200, events: replayed, end: 'complete' });
    expect(resumeOf(session.streams)!.resumes).toBeNull();
  });

  it.each([
    ['chrome-har-hono-genuine', 5, 7],
    ['chrome-har-hono-lost-buffer', 5, 2],
    ['chrome-har-mcp-lite-genuine', 5, 3],
  ] as const)('%s: chrome-har dropped the reset entries: %i streams, and the resume of nothing it holds', (name, streams, replayed) => {
    const session = only(report(name));
    expect(session.streams).toHaveLength(streams);
    expect(session.streams.some((s) => s.end === 'reset')).toBe(false);
    expect(summary(resumeOf(session.streams))).toEqual({ method: 'GET', status: 200, events: replayed, end: 'complete' });
    expect(resumeOf(session.streams)!.resumes).toBeNull();
  });

  it('mitmproxy: the client got a 502 and the HAR has no tool call at all, nor any resume', () => {
    const session = only(report('mitmproxy-hono-genuine'));
    expect(session.streams.map((s) => `${s.method} ${s.status}`)).toEqual(['POST 200', 'POST 202', 'GET 200', 'DELETE 200']);
    expect(session.resumes).toEqual([]);
  });
});

describe('writer fixtures: mcp-lite moves progress to the standalone GET', () => {
  it.each(['devtools-mcp-lite-genuine', 'firefox-mcp-lite-genuine'])('%s: the POST carries progress without ids, the GET with ids, and its resume replays the rest', (name) => {
    const session = only(report(name));
    const resume = resumeOf(session.streams)!;
    const standalone = session.streams.find((s) => s.index === resume.resumes)!;
    expect(summary(standalone)).toMatchObject({ method: 'GET', status: 200, events: 2 });
    expect(summary(resume)).toMatchObject({ method: 'GET', events: 3 });
    expect(session.streams.filter((s) => s.method === 'POST').map((s) => s.events)).toContain(6);
  });

  it('the result was truly lost (mcp-lite writes it only to the POST stream, which was gone): result-lost is raised where the streams were captured', () => {
    expect(only(report('devtools-mcp-lite-genuine')).findings.map((f) => f.code)).toContain('result-lost');
  });
});

/** The findings must not depend on how the body arrived in chunks (DESIGN section 8); arrival times aside. */
const CHUNKINGS = 100;
describe(`writer fixtures under ${CHUNKINGS} random chunkings`, () => {
  it.each(WRITER_FIXTURES)('%s: the report is byte-identical', (name) => {
    const exchanges = loadHarFixture(`writers/${name}`);
    const expected = reportText(analyze(exchanges));
    fc.assert(fc.property(fc.integer(), fc.integer({ min: 1, max: 200 }), (seed, maxChunk) => {
      expect(reportText(analyze(rechunk(exchanges, prng(seed), maxChunk)))).toBe(expected);
    }), { numRuns: CHUNKINGS });
  });
});
