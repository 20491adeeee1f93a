import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, readHar, type Report } from '../../src/core';
import { findingCodes, loadHarFixture } from '../support/har-fixtures';

/**
 * The verdicts issue 18 asks for on the real writers' files (test/fixtures/har/writers): absent
 * evidence is never evidence of loss, and the real servers get no false findings. Each case
 * names the writer fact or server behaviour it rests on (the folder's README has them all).
 */
const report = (name: string): Report => analyze(loadHarFixture(`writers/${name}.har`));
const session = (r: Report) => r.sessions[0]!;
const errors = (r: Report) => findingCodes(r).filter((c) => c.startsWith('error:'));
const codes = (r: Report) => session(r).findings.map((f) => f.code);

describe('a body the writer did not keep is no evidence of loss', () => {
  it.each(['playwright-hono-genuine', 'playwright-sdk-genuine', 'playwright-hono-lost-buffer'])(
    '%s: Playwright kept none of the reset call (size -1): body absent, the resume unverifiable and why, no error',
    (name) => {
      const r = report(name);
      const call = session(r).streams.find((s) => s.method === 'POST' && s.error === 'net::ERR_INCOMPLETE_CHUNKED_ENCODING')!;
      expect(call.body).toBe('absent');
      // The call's missing body is a finding of its own, and it says which verdict it leaves open.
      const [resume] = session(r).resumes;
      expect(resume!.verdict).toBe('unverifiable');
      const missing = session(r).findings.find((f) => f.code === 'body-not-captured' && f.stream === call.index)!;
      expect(missing).toMatchObject({ severity: 'warning', message: expect.stringContaining(`resume #${resume!.stream}`) });
      expect(codes(r)).not.toContain('resume-unknown-id');
      expect(errors(r)).toEqual([]);
    },
  );

  it('playwright-mcp-lite-genuine: no result-lost when the stream that should carry the result has no body in the file', () => {
    const r = report('playwright-mcp-lite-genuine');
    expect(codes(r)).not.toContain('result-lost');
    expect(codes(r)).toContain('body-not-captured');
  });

  it('sdk-lost-buffer.har with its SSE bodies blanked (as a writer that keeps no body of a stream gives it): no result-lost, no resume-unknown-id, exit 0', () => {
    const har = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/har/sdk-lost-buffer.har'), 'utf8')) as { log: { entries: Record<string, any>[] } };
    for (const entry of har.log.entries) {
      if (!String(entry.response.content.mimeType).includes('text/event-stream')) continue;
      delete entry.response.content.text;
      delete entry._chunks;
      delete entry._sse;
    }
    const result = readHar(JSON.stringify(har));
    if (!result.ok) throw new Error(result.reason);
    const r = analyze(result.exchanges);
    expect(codes(r)).not.toContain('result-lost');
    expect(codes(r)).not.toContain('resume-unknown-id');
    expect(codes(r)).toContain('body-not-captured');
    expect(session(r).resumes.map((x) => x.verdict)).toEqual(['unverifiable']);
    expect(errors(r)).toEqual([]);
  });

  it.each(['chrome-har-hono-genuine', 'chrome-har-hono-lost-buffer', 'chrome-har-mcp-lite-genuine'])(
    '%s: chrome-har left the reset call out altogether: the resume is unverifiable, and nothing is an error',
    (name) => {
      const r = report(name);
      expect(session(r).resumes.map((x) => x.verdict)).toEqual(['unverifiable']);
      expect(errors(r)).toEqual([]);
    },
  );
});

describe('the verdicts still stand where the writer kept the evidence', () => {
  it.each([
    ['devtools-hono-genuine', 'genuine'],
    ['firefox-hono-genuine', 'genuine'],
    ['devtools-hono-lost-buffer', 'gap'],
    ['firefox-hono-lost-buffer', 'gap'],
  ])('%s: %s', (name, verdict) => {
    const r = report(name);
    expect(session(r).resumes.map((x) => x.verdict)).toEqual([verdict]);
    expect(errors(r)).toEqual(verdict === 'gap' ? ['error:resume-seq-gap'] : []);
  });
});

describe('no false findings on the real servers', () => {
  it.each(['firefox-hono-genuine', 'firefox-hono-lost-buffer', 'mitmproxy-hono-genuine'])(
    "%s: Hono answers a notification with 202 and the body `null`, which is not malformed",
    (name) => {
      expect(codes(report(name))).not.toContain('malformed-event');
    },
  );

  it.each(['devtools-mcp-lite-genuine', 'firefox-mcp-lite-genuine'])(
    "%s: mcp-lite's resume of the standalone GET replays its buffer faithfully (same token, app_seq continuous): genuine, not cross-stream",
    (name) => {
      const r = report(name);
      expect(codes(r)).not.toContain('resume-cross-stream');
      expect(session(r).resumes.map((x) => x.verdict)).toEqual(['genuine']);
    },
  );
});
