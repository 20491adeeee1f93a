import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeHar, type Report } from '../core';
import { scenarios } from '../../test/support/scenarios';
import { resume, rpc, sse, exchange } from '../../test/support/fixtures';
import { main } from './main';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/har');
const dir = mkdtempSync(join(tmpdir(), 'msl-cli-'));
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('mcp-stream-lens check', () => {
  it('passes a genuine resume recorded from the real SDK (exit 0)', async () => {
    const { code, out } = await run('check', join(FIXTURES, 'sdk-genuine.har'));
    expect(code).toBe(0);
    expect(out).toMatch(/resume #\d+ of #\d+: GENUINE/);
  });

  it('fails a lost-buffer resume (exit 1) and names the finding and its event id', async () => {
    const { code, out } = await run('check', join(FIXTURES, 'sdk-lost-buffer.har'));
    expect(code).toBe(1);
    expect(out).toMatch(/: GAP/);
    expect(out).toMatch(/error {3}resume-seq-gap {2}#\d+ event 0 \(id "[^"]+/);
  });

  it('prints the report contract with --format json', async () => {
    const { code, out } = await run('check', join(FIXTURES, 'sdk-lost-buffer.har'), '--format', 'json');
    const report = JSON.parse(out) as Report;
    expect(code).toBe(1);
    expect(report).toMatchObject({ tool: 'mcp-stream-lens', reportVersion: 1, summary: { sessions: 1, errors: 1 } });
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['gap']);
  });

  it('several files give an array in JSON and fail if any fails', async () => {
    const { code, out } = await run('check', join(FIXTURES, 'sdk-genuine.har'), join(FIXTURES, 'sdk-lost-buffer.har'), '--format', 'json');
    expect(code).toBe(1);
    expect((JSON.parse(out) as { file: string }[]).map((r) => r.file)).toEqual([join(FIXTURES, 'sdk-genuine.har'), join(FIXTURES, 'sdk-lost-buffer.har')]);
  });

  it('--fail-on warning turns warnings into exit 1', async () => {
    const har = file('warn.har', JSON.stringify(writeHar(scenarios.unverifiable())));
    expect((await run('check', har)).code).toBe(0);
    expect((await run('check', har, '--fail-on', 'warning')).code).toBe(1);
  });

  it('--app-seq reads the application sequence from a user JSON pointer', async () => {
    const progress = (n: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { step: n } } });
    const har = file('pointer.har', JSON.stringify(writeHar([
      exchange({ session: 's', body: rpc.call(1), text: sse([{ id: 'a', data: progress(1) }, { id: 'b', data: progress(2) }]), end: 'reset' }),
      resume('s', 'b', { text: sse([{ id: 'c', data: progress(9) }, { id: 'd', data: rpc.result(1) }]) }),
    ])));
    expect((await run('check', har, '--format', 'json')).out).toContain('"verdict": "unverifiable"');
    const withPointer = await run('check', har, '--app-seq', '/params/data/step', '--format', 'json');
    expect(withPointer.code).toBe(1);
    expect(withPointer.out).toContain('"verdict": "gap"');
  });

  it('reads bodies Playwright attached beside the HAR, and only plain sibling names', async () => {
    const har = writeHar(scenarios.lostBuffer(), { redact: false });
    for (const [i, entry] of har.log.entries.entries()) {
      if (!entry.response.content.text) continue;
      writeFileSync(join(dir, `body-${i}.txt`), entry.response.content.text);
      delete entry.response.content.text;
      delete entry._chunks;
      delete entry._sse;
      (entry.response.content as Record<string, unknown>)._file = `body-${i}.txt`;
    }
    expect((await run('check', file('attached.har', JSON.stringify(har)), '--format', 'json')).out).toContain('"verdict": "gap"');
    (har.log.entries[2]!.response.content as Record<string, unknown>)._file = '../../etc/passwd';
    const hostile = await run('check', file('hostile-file.har', JSON.stringify(har)));
    expect(hostile.err).toContain('could not be read');
  });

  it('shows hostile ids as escapes, never as terminal control codes', async () => {
    const har = file('hostile.har', JSON.stringify(writeHar([
      exchange({ session: 's\u001b[2J', body: rpc.call(1), text: sse([{ id: 'x\u001b]0;pwned\u0007\u202e', data: 'not json' }]) }),
    ])));
    const { out } = await run('check', har);
    expect(out).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(out).toContain('\\u001b');
  });

  it.each([
    ['a missing file', () => join(dir, 'nope.har'), /nope\.har: cannot read \(no such file\)/],
    ['a directory', () => dir, /is a directory/],
    ['truncated JSON', () => file('cut.har', '{"log":{"entries":[{"request":'), /not valid JSON/],
    ['JSON that is not HAR', () => file('x.har', '{"hello":1}'), /not a HAR file/],
  ])('exits 2 with a one-line reason for %s', async (_name, path, reason) => {
    const { code, err, out } = await run('check', path());
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(reason);
  });

  it('exits 2 with usage for bad arguments', async () => {
    for (const argv of [[], ['lint', 'x'], ['check'], ['check', 'x', '--format', 'xml'], ['check', 'x', '--app-seq', 'no-slash']]) {
      const { code, err } = await run(...argv);
      expect(code).toBe(2);
      expect(err).toContain('usage: mcp-stream-lens check');
    }
  });

  it('runs as a real process through bin/ with the documented exit codes', async () => {
    const bin = join(import.meta.dirname, '../../bin/mcp-stream-lens.js');
    const exec = promisify(execFile);
    const codeOf = (args: string[]) => exec(process.execPath, [bin, ...args]).then(() => 0, (e: { code: number }) => e.code);
    expect(await codeOf(['check', join(FIXTURES, 'sdk-genuine.har')])).toBe(0);
    expect(await codeOf(['check', join(FIXTURES, 'sdk-lost-buffer.har')])).toBe(1);
    const failed = await exec(process.execPath, [bin, 'check', join(dir, 'missing.har')]).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  });
});
