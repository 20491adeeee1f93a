import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The built CLI, run as a user runs it: `node bin/mcp-stream-lens.js ...` (npm run build:cli first). */
export const BIN = join(import.meta.dirname, '../../../bin/mcp-stream-lens.js');

/** A running CLI process with what it printed so far, and waits on what it prints. */
export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout or stderr (or rejects when the process exits first). */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number>;
}

export function startCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const text = { stdout: '', stderr: '' };
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((text.stdout += chunk), wake()));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((text.stderr += chunk), wake()));
  let done = false;
  const exited = new Promise<number>((resolve) => child.once('close', (code, signal) => ((done = true), wake(), resolve(code ?? (signal ? 128 : -1)))));
  return {
    child,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    exited,
    waitFor(pattern, stream) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const match = (stream ? text[stream] : `${text.stdout}\n${text.stderr}`).match(pattern);
          if (match) {
            waiters.delete(look);
            resolve(match);
          } else if (done) {
            waiters.delete(look);
            reject(new Error(`exited before printing ${pattern}:\n${text.stdout}\n${text.stderr}`));
          }
        };
        waiters.add(look);
        look();
      });
    },
  };
}

/** The proxy's client URL for its first target, from the line it prints at start. */
export async function proxyUrl(cli: CliProcess): Promise<string> {
  const [, url] = await cli.waitFor(/mcp-stream-lens proxy: (http:\/\/\S+) -> /, 'stderr');
  return url!;
}
