import { spawn } from 'node:child_process';
import { onPath } from './browsers.js';
import { DemoError } from './demo-error.js';
import type { Lifecycle } from './lifecycle.js';

/** How long Xvfb may take to report its display. */
export const XVFB_START_DEADLINE_MS = 15_000;

/**
 * An X display for a headed browser: `$DISPLAY` when there is one, otherwise an Xvfb the demo
 * starts itself. Xvfb reports the display it took on `-displayfd` once it accepts clients, which
 * is the ready signal (no polling, no sleep).
 */
export async function ensureDisplay(lifecycle: Lifecycle, log: (line: string) => void): Promise<string> {
  if (process.env.DISPLAY) return process.env.DISPLAY;
  const xvfb = await onPath('Xvfb');
  if (!xvfb) {
    throw new DemoError('there is no DISPLAY and no Xvfb: install it (sudo apt-get install -y xvfb), run under a desktop, or use --headless');
  }
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  lifecycle.adopt(child);
  lifecycle.defer(() => stop(child));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2_000)));

  const display = await new Promise<string>((resolve, reject) => {
    let reported = '';
    const timer = setTimeout(() => reject(new DemoError(`Xvfb did not start within ${XVFB_START_DEADLINE_MS / 1000} s`)), XVFB_START_DEADLINE_MS);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      reported += d.toString();
      if (!reported.includes('\n')) return;
      clearTimeout(timer);
      resolve(`:${reported.trim()}`);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new DemoError(`Xvfb exited (${code}) before it was ready: ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
  log(`demo: no DISPLAY; started Xvfb on ${display}`);
  return display;
}

function stop(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
