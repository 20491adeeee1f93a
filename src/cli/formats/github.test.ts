import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeHar } from '../../core';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { runCli } from '../../../test/support/cli-run';

const FIXTURES = 'test/fixtures/har';

describe('--format github', () => {
  it('prints ::error lines on the HAR file, titled by code and title', async () => {
    const { code, out } = await runCli(['check', `${FIXTURES}/sdk-lost-buffer.har`, '--format', 'github']);
    expect(code).toBe(1);
    const lines = out.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^::error file=test\/fixtures\/har\/sdk-lost-buffer\.har,title=resume-seq-gap%3A Application sequence jumped across a resume::.*expected \d+/));
    expect(lines.every((line) => /^::(error|warning|notice) file=[^,]+,title=[^:]+::/.test(line))).toBe(true);
  });

  it('a hostile value cannot end the command or start another', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msl-gh-'));
    const file = join(dir, 'a,b:c.har');
    writeFileSync(file, JSON.stringify(writeHar([exchange({ session: 's', body: rpc.call(1), text: sse([{ id: 'x', data: 'oops\n::error::forged %0A' }]) })], { redact: false })));
    const { out } = await runCli(['check', file, '--format', 'github']);
    const lines = out.trim().split('\n');
    expect(lines.every((line) => line.startsWith('::'))).toBe(true);
    expect(lines.some((line) => line.startsWith('::error::forged'))).toBe(false);
    const report = JSON.parse((await runCli(['check', file, '--format', 'json'])).out) as { files: { report: { sessions: { findings: unknown[] }[] } }[] };
    expect(lines).toHaveLength(report.files[0]!.report.sessions.flatMap((s) => s.findings).length);
    expect(out).toContain('a%2Cb%3Ac.har');
  });

  it('writes a Markdown job summary when GITHUB_STEP_SUMMARY is set', async () => {
    const summary = join(mkdtempSync(join(tmpdir(), 'msl-gh-')), 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    await runCli(['check', `${FIXTURES}/sdk-lost-buffer.har`, `${FIXTURES}/sdk-genuine.har`, 'nope.har', '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n## MCP Stream Lens')).toBe(true);
    expect(md).toContain('| File | Sessions | Resumes | Errors | Warnings |');
    expect(md).toMatch(/\| test\\\/fixtures\\\/har\\\/sdk\\-lost\\-buffer\\\.har \| 1 \| #\d+ gap \| 1 \|/);
    expect(md).toContain('unreadable: cannot read \\(no such file\\)');
    expect(md).toMatch(/- \*\*error\*\* resume\\-seq\\-gap \(#\d+ event 0\)/);
  });
});
