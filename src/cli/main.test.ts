import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeHar, type Report } from '../core';
import { scenarios } from '../../test/support/scenarios';
import { resume, rpc, sse, exchange } from '../../test/support/fixtures';
import type { CheckOutput } from './formats/json';
import { main, type Io } from './main';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/har');
const dir = mkdtempSync(join(tmpdir(), 'msl-cli-'));
const file = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

async function runWith(io: Partial<Io>, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { ...io, stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) });
  return { code, out, err };
}
const run = (...argv: string[]) => runWith({}, ...argv);
const json = (out: string) => JSON.parse(out) as CheckOutput;
const reportOf = (out: string, i = 0): Report => {
  const file = json(out).files[i]!;
  if (!('report' in file)) throw new Error(`no report: ${file.error}`);
  return file.report;
};

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

  it('prints one object with --format json: the report at /files/0/report, and the totals', async () => {
    const { code, out } = await run('check', join(FIXTURES, 'sdk-lost-buffer.har'), '--format', 'json');
    const report = reportOf(out);
    expect(code).toBe(1);
    expect(json(out)).toMatchObject({ tool: 'mcp-stream-lens', outputVersion: 1, files: [{ path: join(FIXTURES, 'sdk-lost-buffer.har'), skippedEntries: 0 }], summary: { files: 1, errors: 1 } });
    expect(report).toMatchObject({ tool: 'mcp-stream-lens', reportVersion: 1, summary: { sessions: 1, errors: 1 } });
    expect(report.sessions[0]!.resumes.map((r) => r.verdict)).toEqual(['gap']);
    const gap = report.sessions[0]!.findings.find((f) => f.code === 'resume-seq-gap')!;
    expect(gap.evidence).toMatchObject({ expected: expect.any(Number), got: expect.any(Number), entry: expect.any(Number), time: expect.any(Number) });
  });

  it('several files give the same object, totals across them, and fail if any fails', async () => {
    const { code, out } = await run('check', join(FIXTURES, 'sdk-genuine.har'), join(FIXTURES, 'sdk-lost-buffer.har'), '--format', 'json');
    expect(code).toBe(1);
    const output = json(out);
    expect(output.files.map((r) => r.path)).toEqual([join(FIXTURES, 'sdk-genuine.har'), join(FIXTURES, 'sdk-lost-buffer.har')]);
    expect(output.summary).toMatchObject({ files: 2, unreadable: 0, sessions: reportOf(out, 0).summary.sessions + reportOf(out, 1).summary.sessions, errors: 1 });
  });

  it('reads a folder recursively (only *.har), a quoted glob, and - for standard input', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'msl-tree-'));
    mkdirSync(join(tree, 'a/b'), { recursive: true });
    writeFileSync(join(tree, 'a/b/lost.har'), readFileSync(join(FIXTURES, 'sdk-lost-buffer.har')));
    writeFileSync(join(tree, 'a/genuine.HAR'), readFileSync(join(FIXTURES, 'sdk-genuine.har')));
    writeFileSync(join(tree, 'a/notes.txt'), 'not a HAR');
    const folder = await run('check', tree, '--format', 'json');
    expect(json(folder.out).files.map((f) => f.path)).toEqual([join(tree, 'a/b/lost.har'), join(tree, 'a/genuine.HAR')]);
    expect(folder.code).toBe(1);

    const glob = await run('check', join(FIXTURES, 'sdk-{genuine,expired}.har'), '--format', 'json');
    expect(json(glob.out).files.map((f) => f.path)).toEqual([join(FIXTURES, 'sdk-expired.har'), join(FIXTURES, 'sdk-genuine.har')]);

    const text = readFileSync(join(FIXTURES, 'sdk-lost-buffer.har'), 'utf8');
    const bytes = new TextEncoder().encode(text);
    // Standard input arrives in pieces; the reader takes a HAR cut anywhere.
    const pieces = async function* () {
      for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
    };
    const stdin = await runWith({ stdin: pieces }, 'check', '-', '--format', 'json');
    expect(stdin.code).toBe(1);
    expect(json(stdin.out).files).toMatchObject([{ path: '-' }]);
    expect(reportOf(stdin.out).sessions[0]!.resumes[0]!.verdict).toBe('gap');
    const notHar = await runWith({ stdin: async function* () { yield new TextEncoder().encode('<html>'); } }, 'check', '-');
    expect(notHar.code).toBe(2);
    expect(notHar.err).toMatch(/^mcp-stream-lens: -: /);
  });

  it('an unreadable file is reported on its own line; the others are still analysed; exit 2', async () => {
    const { code, out, err } = await run('check', join(dir, 'gone.har'), join(FIXTURES, 'sdk-genuine.har'), join(FIXTURES, 'nothing-*.har'), '--format', 'json');
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toEqual([`mcp-stream-lens: ${join(dir, 'gone.har')}: cannot read (no such file)`, `mcp-stream-lens: ${join(FIXTURES, 'nothing-*.har')}: no file matches this pattern`]);
    const output = json(out);
    expect(output.summary).toMatchObject({ files: 3, unreadable: 2 });
    expect(output.files[1]).toHaveProperty('report');
    expect(output.files[0]).toEqual({ path: join(dir, 'gone.har'), error: 'cannot read (no such file)' });
  });

  it('--version prints the package version; an unknown flag names the closest one, on one line', async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(await run('--version')).toMatchObject({ code: 0, out: `${pkg.version}\n` });
    const typo = await run('check', 'x.har', '--fromat', 'json');
    expect(typo.code).toBe(2);
    expect(typo.err.trim().split('\n')).toHaveLength(1);
    expect(typo.err).toContain('unknown option "--fromat"; did you mean --format?');
    expect((await run('check', 'x.har', '--fail-onn', 'warning')).err).toContain('did you mean --fail-on?');
    expect((await run('check', 'x.har', '--zzzzzzzz')).err).not.toContain('did you mean');
    expect((await run('chekc', 'x.har')).err).toContain('did you mean check?');
  });

  it('colours the text report only when asked (run.ts asks on a TTY, honouring NO_COLOR and FORCE_COLOR)', async () => {
    const path = join(FIXTURES, 'sdk-lost-buffer.har');
    expect((await runWith({ color: true }, 'check', path)).out).toContain('\u001b[31mGAP\u001b[39m');
    expect((await run('check', path)).out).not.toContain('\u001b');
  });

  it('closes the quote of a long Last-Event-ID it cuts short', async () => {
    const long = `s_${'9'.repeat(100)}`;
    const har = file('long-id.har', JSON.stringify(writeHar([
      exchange({ session: 's', body: rpc.call(1), text: sse([{ id: long, data: rpc.progress('tok-1', 1) }]), end: 'reset' }),
      resume('s', long, { text: sse([{ id: 'z', data: rpc.result(1) }]) }),
    ])));
    const { out } = await run('check', har);
    expect(out).toMatch(/Last-Event-ID "s_9+…"/);
  });

  it('--output writes the format to a file and the text report to the terminal', async () => {
    const target = join(dir, 'out.sarif');
    const { code, out } = await run('check', join(FIXTURES, 'sdk-lost-buffer.har'), '--format', 'sarif', '--output', target);
    expect(code).toBe(1);
    expect(out).toMatch(/: GAP/);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toMatchObject({ version: '2.1.0' });
    const denied = await run('check', join(FIXTURES, 'sdk-genuine.har'), '--output', join(dir, 'no/such/dir/x.txt'));
    expect(denied).toMatchObject({ code: 2, err: expect.stringContaining('cannot write') });
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
    ['a folder with no HAR file', () => mkdtempSync(join(tmpdir(), 'msl-empty-')), /holds no \.har file/],
    ['truncated JSON', () => file('cut.har', '{"log":{"entries":[{"request":'), /not valid JSON/],
    ['JSON that is not HAR', () => file('x.har', '{"hello":1}'), /not a HAR file/],
  ])('exits 2 with a one-line reason for %s', async (_name, path, reason) => {
    const { code, err, out } = await run('check', path());
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim().split('\n')).toHaveLength(1);
    expect(err).toMatch(reason);
  });

  it('exits 2 with one line for bad arguments, and the usage for no command', async () => {
    for (const argv of [['check'], ['check', 'x', '--format', 'xml'], ['check', 'x', '--app-seq', 'no-slash'], ['check', 'x', '--format'], ['check', '-', '-']]) {
      const { code, err } = await run(...argv);
      expect(code).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
      expect(err).toContain('--help shows the usage');
    }
    for (const argv of [[], ['lint', 'x']]) {
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
