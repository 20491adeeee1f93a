import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLongTask } from '../../demo/client/long-task-client.js';
import { DEMO_TASK } from '../../demo/scenario-catalog.js';
import { CALL_TIMEOUT_MS, type RecordingSite } from './site.js';

/** Where Debian's `mitmproxy` package puts the HAR writer it ships as an example addon. */
export const HAR_DUMP = '/usr/share/doc/mitmproxy/examples/contrib/har_dump.py';
/** How long mitmdump may take to listen, and to write its HAR when told to stop. */
export const MITM_DEADLINE_MS = 20_000;

/** Why mitmproxy cannot record here, or undefined when it can. */
export function mitmproxyMissing(): string | undefined {
  if (!existsSync('/usr/bin/mitmdump')) return 'mitmdump is not installed (as root: apt-get install -y mitmproxy)';
  if (!existsSync(HAR_DUMP)) return `${HAR_DUMP} is missing (Debian's mitmproxy package ships it)`;
  return undefined;
}

/**
 * mitmproxy's HAR export: `mitmdump -s har_dump.py` as a reverse proxy in front of the site,
 * with the real SDK client (in Node, as a server-side agent would run it) talking to mitmdump.
 * har_dump writes the file when mitmdump stops. `revision` is the one the client asks for.
 */
export async function recordWithMitmproxy(site: RecordingSite, file: string, revision: string | undefined): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'msl-mitm-'));
  const dump = join(dir, 'dump.har');
  const origin = new URL(site.mcpUrl).origin;
  const child = spawn('mitmdump', ['--mode', `reverse:${origin}`, '--listen-host', '127.0.0.1', '--listen-port', '0', '-s', HAR_DUMP, '--set', `hardump=${dump}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const port = await waitForLine(child, /Proxy server listening at 127\.0\.0\.1:(\d+)/);
    const run = await runLongTask(`http://127.0.0.1:${port}${new URL(site.mcpUrl).pathname}`, DEMO_TASK, {
      timeoutMs: CALL_TIMEOUT_MS,
      ...(revision !== undefined && { protocolVersion: revision }),
    });
    await site.settled();
    const finished = waitForLine(child, /HAR dump finished/);
    child.kill('SIGTERM');
    await finished;
    await writeFile(file, `${JSON.stringify(JSON.parse(await readFile(dump, 'utf8')), null, 2)}\n`);
    // mitmproxy's own error page is HTML; its one telling line is enough here.
    return 'result' in run.belief ? `result ${JSON.stringify(run.belief.result._meta ?? {})}` : `error ${run.belief.error.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ')}`;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

/** Resolves with the first capture group of the first output line matching `pattern`. */
function waitForLine(child: ReturnType<typeof spawn>, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`mitmdump: no line matching ${pattern} within ${MITM_DEADLINE_MS / 1000} s: ${seen.slice(-500)}`)), MITM_DEADLINE_MS);
    const onData = (data: Buffer) => {
      seen += data.toString();
      const match = pattern.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve(match[1] ?? match[0]);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mitmdump exited (${code}): ${seen.slice(-500)}`));
    });
  });
}
