import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLongTask } from '../../demo/client/long-task-client.js';
import { DEMO_FAULTS, startScenario } from '../../demo/lb/scenario.js';
import { DEMO_TASK } from '../../demo/scenario-catalog.js';
import { BIN, proxyUrl, startCli } from './support/cli-process.js';

// The proxy and record commands as a user runs them: the built CLI in its own process, the real
// SDK client and servers, the demo's fault-injecting load balancer behind the proxy. Asserts on
// what the terminal shows and on the exit codes (npm run build:cli first).

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stream-lens-proxy-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Session ids differ between the live run and the HAR (pseudonymized): compare them by order of appearance. */
function sameSessions(text: string): string {
  const keys = new Map<string, string>();
  return text.replace(/^session (\S+)/gm, (_, key: string) => {
    if (!keys.has(key)) keys.set(key, `S${keys.size + 1}`);
    return `session ${keys.get(key)}`;
  });
}

describe('mcp-stream-lens proxy in a terminal', () => {
  it('prints the bad resume when it is found, and on SIGINT writes a HAR that check reads the same way', async () => {
    const { lb, close } = await startScenario('lost-buffer', DEMO_FAULTS);
    const har = join(dir, 'lost.har');
    const cli = startCli(['proxy', '--target', lb.url, '--listen', '127.0.0.1:0', '--no-view', '--har', har]);
    try {
      const url = await proxyUrl(cli);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const run = await runLongTask(url, { ...DEMO_TASK, idempotencyKey: 'proxy-cli' });
      expect('result' in run.belief).toBe(true); // the client believed the invented result
      // The finding is printed while the proxy still runs, as check words it.
      await cli.waitFor(/resume #\d+ of #\d+: GAP/, 'stdout');
      // What is not known until the end is not printed live (the resume could still deliver it).
      expect(cli.stdout()).not.toContain('result-lost');
      await cli.waitFor(/error {3}resume-seq-gap {2}#\d+ event 0 \(id "[^"]+"?\): app_seq jumped from 5 to 11/, 'stdout');
      await lb.log.settled();
      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(1);
    } finally {
      cli.child.kill('SIGKILL');
      await close();
    }
    expect(cli.stderr()).toMatch(/wrote .*lost\.har \(\d+ entries; credentials redacted, session ids pseudonymized\)/);
    const checked = await promisify(execFile)(process.execPath, [BIN, 'check', har]).catch((e: { code: number; stdout: string }) => e);
    expect(checked).toMatchObject({ code: 1 });
    // The final report is check's report of the HAR, line for line.
    const final = cli.stdout().slice(cli.stdout().indexOf(`${har}:`)).trim();
    expect(sameSessions(final)).toBe(sameSessions((checked as { stdout: string }).stdout.trim()));
    expect(final).toMatch(/1 session, \d+ streams, \d+ events; [1-9]\d* errors?/);
    expect(await readFile(har, 'utf8')).toContain('redacted-1');
  });

  it('stops by itself after --duration, counting a refused target and a client that sends garbage', async () => {
    // A port with nothing listening: bind one, note it, close it.
    const { lb, close } = await startScenario('genuine', DEMO_FAULTS);
    const deadTarget = lb.url;
    await close();
    const cli = startCli(['proxy', '--target', deadTarget, '--listen', '127.0.0.1:0', '--no-view', '--duration', '2']);
    const url = await proxyUrl(cli);
    const answer = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(502);
    expect(await answer.text()).toMatch(/did not answer \(ECONNREFUSED\)/);
    const garbage = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1', () => socket.write('\u0000\u0001 not http at all\r\n\r\n'));
      let reply = '';
      socket.setEncoding('utf8').on('data', (d: string) => (reply += d)).on('end', () => resolve(reply)).on('error', reject);
    });
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toMatch(/mcp-stream-lens proxy: 2 s are up, stopping/);
    expect(cli.stderr()).toMatch(/counted .*badClientRequests 1/);
    expect(cli.stderr()).toMatch(/counted .*targetErrors 1/);
  });

  it('on a terminal (a real pty, through util-linux script) redraws its status line in place', async () => {
    const { lb, close } = await startScenario('genuine', DEMO_FAULTS);
    try {
      const command = `stty cols 200; exec ${process.execPath} ${BIN} proxy --target ${lb.url} --listen 127.0.0.1:0 --no-view --duration 4`;
      const pty = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let screen = '';
      const printed = new Promise<void>((resolve) => pty.stdout.setEncoding('utf8').on('data', (d: string) => ((screen += d), /-> http/.test(screen) && resolve())));
      const exited = new Promise<number>((resolve) => pty.once('close', (code) => resolve(code ?? -1)));
      await printed;
      const url = /mcp-stream-lens proxy: (http:\/\/\S+) -> /.exec(screen)![1]!;
      await runLongTask(url, { ...DEMO_TASK, idempotencyKey: 'proxy-pty' });
      expect(await exited).toBe(0);
      // Each redraw returns to the line's start and clears it; the last one before the stop counts the session.
      expect(screen).toMatch(/\r\x1b\[Kproxy: 1 session, 6 streams \(0 open\), \d+ events; 0 errors, 0 warnings/);
      // Live, the broken call is not counted as lost: its resume may still (and here does) deliver.
      expect(screen).not.toMatch(/\r\x1b\[Kproxy: [^\r]*[1-9] errors?/);
      expect(screen).toMatch(/\r\x1b\[K {2}resume #\d+ of #\d+: GENUINE/);
    } finally {
      await close();
    }
  });

  it('exits 2, saying what to do, when it cannot create its recording file', async () => {
    const cli = startCli(['proxy', '--target', 'http://127.0.0.1:9/mcp', '--listen', '127.0.0.1:0', '--no-view'], { ...process.env, TMPDIR: '/nonexistent/folder' });
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toMatch(/cannot create the recording's file in \/nonexistent\/folder \(ENOENT\); set TMPDIR to a writable folder/);
  });

  it('exits 2 with usage for bad arguments, and when the port is taken', async () => {
    for (const args of [['proxy'], ['proxy', '--target', 'ftp://x/'], ['proxy', '--target', 'http://a/', '--target', 'http://b/'], ['record', '--target', 'http://a/']]) {
      const cli = startCli(args);
      expect(await cli.exited).toBe(2);
      expect(cli.stderr()).toContain('usage: mcp-stream-lens proxy');
    }
    const first = startCli(['proxy', '--target', 'http://127.0.0.1:9/mcp', '--listen', '127.0.0.1:0', '--no-view']);
    const port = new URL(await proxyUrl(first)).port;
    const second = startCli(['proxy', '--target', 'http://127.0.0.1:9/mcp', '--listen', `127.0.0.1:${port}`, '--no-view']);
    expect(await second.exited).toBe(2);
    expect(second.stderr()).toMatch(/cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});

describe('mcp-stream-lens record', () => {
  const client = ['node_modules/tsx/dist/cli.mjs', 'test/e2e/support/record-client.ts'];

  it('runs the command with MCP_PROXY_URL and exits with the findings when they are worse', async () => {
    const { lb, close } = await startScenario('lost-buffer', DEMO_FAULTS);
    try {
      const cli = startCli(['record', '--target', lb.url, '--no-view', '--', process.execPath, ...client]);
      expect(await cli.exited).toBe(1);
      expect(cli.stdout()).toMatch(/client got app_seq 12 through http:\/\/127\.0\.0\.1:\d+\/mcp/);
      expect(cli.stdout()).toMatch(/resume #\d+ of #\d+: GAP/);
      expect(cli.stderr()).toMatch(/the command exited with 0/);
    } finally {
      await close();
    }
  });

  it("exits with the command's code when that is worse", async () => {
    const { lb, close } = await startScenario('genuine', DEMO_FAULTS);
    try {
      const cli = startCli(['record', '--target', lb.url, '--no-view', '--', process.execPath, ...client], { ...process.env, RECORD_CLIENT_EXIT: '3' });
      expect(await cli.exited).toBe(3);
      expect(cli.stdout()).toMatch(/client got app_seq 13/);
      expect(cli.stdout()).toMatch(/resume #\d+ of #\d+: GENUINE/);
      expect(cli.stdout()).toMatch(/0 errors/);
    } finally {
      await close();
    }
  });
});
