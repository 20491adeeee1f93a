import { nonZero } from '../proxy/caps';
import type { LiveCounts } from '../proxy/analysis-protocol';
import type { RunningProxy } from '../proxy/server';

/** Where live output goes: finding lines, and a status line (redrawn in place on a terminal). */
export interface TerminalOut {
  line(text: string): void;
  /** Redraws the status line; undefined when the output is not a terminal. */
  status: ((text: string) => void) | undefined;
  /** Prints a status line as a plain line (a log, a pipe). */
  plainStatus(text: string): void;
}

/** How often findings are looked for while traffic flows: the report costs its findings, not its events. */
const CHECK_EVERY_MS = 100;
/** Without a terminal, a changed status line is printed at most this often. */
const PLAIN_STATUS_EVERY_MS = 5_000;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The status line: what the proxy has seen so far, and what it could not record. */
export function statusLine(proxy: RunningProxy, counts: LiveCounts): string {
  const open = proxy.recording.openCount();
  const dropped = nonZero(proxy.counters);
  return (
    `proxy: ${plural(counts.sessions, 'session')}, ${plural(counts.streams, 'stream')} (${open} open), ${plural(counts.events, 'event')}; ` +
    `${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}` +
    (dropped.length > 0 ? `; ${dropped.join(', ')}` : '')
  );
}

/**
 * Prints what the live analysis reports while traffic flows (see cli/live-findings.ts) and keeps
 * the status line current. Returns a stop function, which prints what is left once the analysis
 * has caught up with the recording.
 */
export function watchInTerminal(proxy: RunningProxy, out: TerminalOut): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let lastPlain = 0;
  let lastStatus = '';

  const check = async () => {
    const { lines, counts } = await proxy.analysis.live();
    for (const line of lines) out.line(line);
    const status = statusLine(proxy, counts);
    if (out.status) out.status(status);
    else if (status !== lastStatus && Date.now() - lastPlain >= PLAIN_STATUS_EVERY_MS) {
      out.plainStatus(status);
      lastPlain = Date.now();
    }
    lastStatus = status;
  };
  // One check at a time: the next is scheduled only once the last has answered.
  const schedule = () => {
    if (stopped || timer || running) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = check().finally(() => (running = undefined));
    }, CHECK_EVERY_MS);
  };
  const unsubscribe = proxy.recording.subscribe(schedule);
  schedule();
  return async () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
    await running;
    await check();
  };
}
