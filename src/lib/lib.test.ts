import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHar, FINDINGS, HarReadError } from './index';
import { expectHarFindings, HarFindingsError } from './playwright';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/har');
const text = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('analyzeHar', () => {
  it('gives the CLI report for a HAR text or a parsed HAR', () => {
    const { report, skippedEntries } = analyzeHar(text('sdk-lost-buffer.har'));
    expect(skippedEntries).toBe(0);
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['gap']);
    expect(analyzeHar(JSON.parse(text('sdk-lost-buffer.har')) as object).report).toEqual(report);
    expect(FINDINGS[report.sessions[0]!.findings[0]!.code].severity).toBe('error');
  });

  it('throws HarReadError for what is not HAR', () => {
    expect(() => analyzeHar('{"hello":1}')).toThrow(HarReadError);
    expect(() => analyzeHar('{')).toThrow(/not a readable HAR: .*JSON/);
  });
});

describe('expectHarFindings', () => {
  it('resolves for a clean capture, and for the findings a test expects', async () => {
    await expect(expectHarFindings(join(FIXTURES, 'sdk-genuine.har'))).resolves.toMatchObject({ report: { summary: { errors: 0 } } });
    await expect(expectHarFindings(join(FIXTURES, 'sdk-lost-buffer.har'), { findings: ['resume-seq-gap'] })).resolves.toBeDefined();
  });

  it('fails with a readable diff: + for a finding not expected, - for one that did not occur', async () => {
    const failure = await expectHarFindings(join(FIXTURES, 'sdk-lost-buffer.har'), { findings: ['resume-rejected'] }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HarFindingsError);
    const { message, diff } = failure as HarFindingsError;
    expect(diff.missing).toEqual(['resume-rejected']);
    expect(diff.unexpected.map((u) => u.finding.code)).toEqual(['resume-seq-gap']);
    expect(message).toMatch(/^mcp-stream-lens: .*sdk-lost-buffer\.har: the findings \(error and worse\) differ/);
    expect(message).toContain('- resume-rejected  (Resume refused)');
    expect(message).toMatch(/\n\+ error resume-seq-gap {2}session \S+ #4 event 0: app_seq jumped from 5 to 11/);
    expect(message).toMatch(/evidence: expected 6, got 11, last seen 5, HAR entry 4/);
    expect(message).toContain('resume #4 of #3: gap');
  });

  it('compares warnings too with failOn: warning, and rejects a file that is not there', async () => {
    await expect(expectHarFindings(join(FIXTURES, 'sdk-empty.har'), { failOn: 'warning' })).rejects.toThrow(/\+ warning resume-empty/);
    await expect(expectHarFindings(join(FIXTURES, 'nope.har'))).rejects.toThrow(HarReadError);
  });
});
