import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { writeHar } from '../core';
import { nonZero, STOP_WAIT_MS } from '../proxy/caps';
import { startProxy, type RunningProxy } from '../proxy/server';
import { parseProxyArgs, PROXY_USAGE, type ProxyArgs } from './proxy-args';
import { watchInTerminal, type TerminalOut } from './live-terminal';
import type { Io } from './main';
import { openView, type OpenedView } from './proxy-view';

/** Exit codes of a command that was killed by a signal, as shells report them. */
const SIGNAL_EXIT = 128;

/**
 * `mcp-stream-lens proxy` and `record`: runs the proxy until Ctrl-C, `--duration` or (record) the
 * command's exit, then writes the HAR and prints the final report. Resolves to the exit code.
 */
export async function runProxyCommand(argv: readonly string[], plainIo: Io, mode: 'proxy' | 'record'): Promise<number> {
  // Every line first clears the status line, which the next check redraws below it.
  const io: Io = { stdout: (text) => (clearStatus(), plainIo.stdout(text)), stderr: (text) => (clearStatus(), plainIo.stderr(text)) };
  if (argv.includes('--help') && (mode === 'proxy' || argv.indexOf('--help') < argv.indexOf('--') || !argv.includes('--'))) {
    io.stdout(PROXY_USAGE);
    return 0;
  }
  const args = parseProxyArgs(argv, mode);
  if (typeof args === 'string') {
    io.stderr(`mcp-stream-lens: ${args}\n${PROXY_USAGE}`);
    return 2;
  }
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({ targets: args.targets, listen: args.listen, analysis: { appSeqPointers: args.appSeqPointers } });
  } catch (error) {
    io.stderr(`mcp-stream-lens: ${(error as Error).message}`);
    return 2;
  }
  for (const { name, url } of proxy.urls) {
    const target = args.targets.find((t) => t.name === name)!;
    io.stderr(`mcp-stream-lens proxy: ${url} -> ${target.url.href}`);
  }
  if (proxy.exposure) io.stderr(proxy.exposure);
  const view = args.view ? await openView(proxy, args.view, args.open, io) : 'none';
  if (view === undefined) {
    await proxy.stop(0);
    await proxy.close();
    return 2;
  }
  const stopWatching = watchInTerminal(proxy, terminalOut(io));

  const { reason, childCode } = await runUntilStopped(proxy, args, io, mode);
  const open = proxy.recording.openCount();
  io.stderr(`mcp-stream-lens proxy: ${reason}${open > 0 ? `; waiting up to ${STOP_WAIT_MS / 1000} s for ${open} open streams` : ""}`);
  const { cut } = await proxy.stop();
  try {
    await stopWatching();
    clearStatus();
    if (view !== 'none') await view.close();
    if (cut > 0) io.stderr(`mcp-stream-lens proxy: ${cut} streams were still open; they are recorded as open`);
    const code = await finalReport(proxy, args, io);
    return childCode === undefined ? code : Math.max(code, childCode);
  } catch (error) {
    io.stderr(`mcp-stream-lens proxy: ${(error as Error).message}`);
    return 2;
  } finally {
    await proxy.close();
  }
}

/** Waits for Ctrl-C / SIGTERM, `--duration`, or (record) the command's exit. */
async function runUntilStopped(proxy: RunningProxy, args: ProxyArgs, io: Io, mode: 'proxy' | 'record'): Promise<{ reason: string; childCode?: number }> {
  const cleanups: (() => void)[] = [];
  try {
    return await new Promise((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const onSignal = () => resolve({ reason: `${signal}, stopping` });
        process.once(signal, onSignal);
        cleanups.push(() => process.off(signal, onSignal));
      }
      if (args.duration !== undefined) {
        const timer = setTimeout(() => resolve({ reason: `${args.duration} s are up, stopping` }), args.duration * 1000);
        cleanups.push(() => clearTimeout(timer));
      }
      if (mode === 'record') {
        const [command, ...rest] = args.command as [string, ...string[]];
        const env: NodeJS.ProcessEnv = { ...process.env, MCP_PROXY_URL: proxy.urls[0]!.url };
        for (const { name, url } of proxy.urls) if (name) env[`MCP_PROXY_URL_${name.toUpperCase().replace(/-/g, '_')}`] = url;
        const child = spawn(command, rest, { stdio: 'inherit', env });
        // The command hears Ctrl-C itself (same process group); a SIGTERM sent to us is passed on.
        const onTerm = () => child.kill('SIGTERM');
        process.on('SIGTERM', onTerm);
        cleanups.push(() => process.off('SIGTERM', onTerm));
        child.once('error', (error) => {
          io.stderr(`mcp-stream-lens record: cannot run ${JSON.stringify(command)} (${(error as NodeJS.ErrnoException).code ?? error.message})`);
          resolve({ reason: 'the command did not start', childCode: 127 });
        });
        child.once('exit', (code, signal) => {
          const childCode = code ?? SIGNAL_EXIT + (signal ? constants.signals[signal] : 0);
          resolve({ reason: `the command exited with ${childCode}`, childCode });
        });
      }
    });
  } finally {
    for (const cleanup of cleanups) cleanup();
  }
}

/** Writes the HAR if asked, prints the report as `check` does, and returns `check`'s exit code. */
async function finalReport(proxy: RunningProxy, args: ProxyArgs, io: Io): Promise<number> {
  // Asked first: the answer waits for the analysis to catch up with all that was recorded.
  const final = await proxy.analysis.finalText(args.har ?? 'proxy');
  if (args.har) {
    const exchanges = proxy.recording.exchanges();
    try {
      await writeFile(args.har, `${JSON.stringify(writeHar(exchanges), null, 2)}\n`);
      io.stderr(`mcp-stream-lens proxy: wrote ${args.har} (${exchanges.length} entries; credentials redacted, session ids pseudonymized)`);
    } catch (error) {
      io.stderr(`mcp-stream-lens proxy: cannot write ${args.har} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  const counts = nonZero(proxy.counters);
  // stdout holds exactly what `check` prints for the HAR; what the proxy counted goes beside it.
  io.stdout(final.text);
  if (counts.length > 0) io.stderr(`mcp-stream-lens proxy: counted ${counts.join(', ')} (see SECURITY.md for each cap)`);
  const failing = final.errors > 0 || (args.failOn === 'warning' && final.warnings > 0);
  return failing ? 1 : 0;
}

/** Finding lines to stdout; the status line to stderr, redrawn in place when stderr is a terminal. */
function terminalOut(io: Io): TerminalOut {
  const tty = process.stderr.isTTY === true;
  return {
    line: (text) => io.stdout(text),
    // One screen line, or the next redraw would leave the wrapped part behind.
    status: tty ? (text) => process.stderr.write(`\r\x1b[K${text.slice(0, Math.max(20, (process.stderr.columns || 120) - 1))}`) : undefined,
    plainStatus: (text) => io.stderr(text),
  };
}

function clearStatus(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}
