import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { writeHar } from '../../core';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { runCli } from '../../../test/support/cli-run';
import { scenarios } from '../../../test/support/scenarios';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/har');
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name) });
type Case = { name: string; classname: string; failure?: { message: string; type: string; '#text': string }[]; 'system-out'?: string; error?: { message: string } };
type Suite = { name: string; tests: string; failures: string; errors: string; testcase: Case[] };

async function junit(...files: string[]): Promise<{ code: number; suites: Suite[]; root: Record<string, string>; xml: string }> {
  const { code, out } = await runCli(['check', ...files, '--format', 'junit']);
  expect(XMLValidator.validate(out)).toBe(true);
  const doc = parser.parse(out) as { testsuites: Record<string, string> & { testsuite: Suite[] } };
  return { code, suites: doc.testsuites.testsuite, root: doc.testsuites, xml: out };
}

describe('--format junit', () => {
  it('a testsuite per file; a testcase per session and per resume; error findings fail their case', async () => {
    const genuine = join(FIXTURES, 'sdk-genuine.har');
    const lost = join(FIXTURES, 'sdk-lost-buffer.har');
    const { code, suites, root } = await junit(genuine, lost);
    expect(code).toBe(1);
    expect(suites.map((s) => s.name)).toEqual([genuine, lost]);
    const [ok, bad] = suites as [Suite, Suite];
    expect(ok.failures).toBe('0');
    expect(ok.testcase.map((c) => c.name)).toEqual([expect.stringMatching(/^session /), expect.stringMatching(/^session .*: resume #\d+ of #\d+ \(genuine\)$/)]);
    const resume = bad.testcase.find((c) => c.name.endsWith('(gap)'))!;
    expect(resume.failure![0]).toMatchObject({ type: 'resume-seq-gap', message: expect.stringContaining('resume-seq-gap') });
    expect(resume.failure![0]!['#text']).toMatch(/evidence: expected \d+, got \d+/);
    expect(bad.failures).toBe(String(bad.testcase.filter((c) => c.failure).length));
    expect(Number(root.tests)).toBe(ok.testcase.length + bad.testcase.length);
  });

  it('warnings go to system-out and do not fail the case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msl-junit-'));
    const file = join(dir, 'warn.har');
    writeFileSync(file, JSON.stringify(writeHar(scenarios.unverifiable())));
    const { suites } = await junit(file);
    const cases = suites[0]!.testcase;
    expect(cases.some((c) => c.failure)).toBe(false);
    expect(cases.map((c) => c['system-out'] ?? '').join('\n')).toMatch(/warning resume-unverifiable/);
  });

  it('an unreadable file is a suite whose case is in error; hostile text stays well-formed XML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msl-junit-'));
    const hostile = join(dir, 'hostile.har');
    writeFileSync(hostile, JSON.stringify(writeHar([exchange({ session: 's"<]]>&\u0000\u001b\ud800', body: rpc.call(1), text: sse([{ id: 'x', data: 'not json <![CDATA[' }]) })], { redact: false })));
    const { suites, root, code } = await junit(join(dir, 'missing.har'), hostile);
    expect(code).toBe(2);
    expect(root.errors).toBe('1');
    expect(suites[0]!.testcase[0]!.error!.message).toBe('cannot read (no such file)');
    expect(suites[1]!.testcase.map((c) => c.name)).toContainEqual(expect.stringContaining('s"<]]>&\\u0000\\u001b\\ud800'));
  });
});
