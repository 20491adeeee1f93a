import type { Finding, Report } from '../core';
import { nonZero } from '../proxy/caps';
import type { RunningProxy } from '../proxy/server';
import { formatFinding, formatResume, formatSession } from './formats/text';

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

/**
 * Findings about what has not happened (yet): live, a call whose stream just broke has no
 * response only until its resume delivers one. They are judged once, in the final report.
 */
const FINAL_ONLY: ReadonlySet<string> = new Set(['result-lost']);

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The status line: what the proxy has seen so far, and what it could not record. */
export function statusLine(proxy: RunningProxy, report: Report): string {
  const { summary } = report;
  // Counted as they are printed: findings judged only at the end are not counted live.
  const live = report.sessions.flatMap((s) => s.findings).filter((f) => !FINAL_ONLY.has(f.code));
  const errors = live.filter((f) => f.severity === 'error').length;
  const warnings = live.filter((f) => f.severity === 'warning').length;
  const open = proxy.recording.openCount();
  const dropped = nonZero(proxy.counters);
  return (
    `proxy: ${plural(summary.sessions, 'session')}, ${plural(summary.streams, 'stream')} (${open} open), ${plural(summary.events, 'event')}; ` +
    `${plural(errors, 'error')}, ${plural(warnings, 'warning')}` +
    (dropped.length > 0 ? `; ${dropped.join(', ')}` : '')
  );
}

/**
 * Prints each finding when the live analysis first reports it, under its session's heading as
 * `check` prints it, and each resume's verdict once its stream has ended. Returns a stop function.
 */
export function watchInTerminal(proxy: RunningProxy, out: TerminalOut): () => void {
  const analyzer = proxy.recording.analyzer;
  const printed = new Set<string>();
  let lastSession: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastPlain = 0;
  let lastStatus = '';

  const print = (session: string, heading: string, text: string) => {
    if (session !== lastSession) out.line(heading);
    lastSession = session;
    out.line(`  ${text}`);
  };
  const check = () => {
    timer = undefined;
    const report = analyzer.report();
    const findingKey = (f: Finding) => `${f.code}|${f.stream}|${f.event}`;
    // Findings about the input as a whole (no MCP traffic at all) come with the final report only.
    for (const session of report.sessions) {
      const ended = new Set(session.streams.filter((s) => s.end !== 'open').map((s) => s.index));
      for (const resume of session.resumes) {
        const key = `resume|${resume.stream}`;
        if (printed.has(key) || !ended.has(resume.stream)) continue;
        printed.add(key);
        print(session.key, formatSession(session), formatResume(resume));
      }
      for (const f of session.findings) {
        const key = `${session.key}|${findingKey(f)}`;
        if (printed.has(key) || FINAL_ONLY.has(f.code)) continue;
        printed.add(key);
        print(session.key, formatSession(session), formatFinding(f, analyzer));
      }
    }
    const status = statusLine(proxy, report);
    if (out.status) out.status(status);
    else if (status !== lastStatus && Date.now() - lastPlain >= PLAIN_STATUS_EVERY_MS) {
      out.plainStatus(status);
      lastPlain = Date.now();
    }
    lastStatus = status;
  };
  const schedule = () => {
    timer ??= setTimeout(check, CHECK_EVERY_MS);
  };
  const unsubscribe = proxy.recording.subscribe(schedule);
  schedule();
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
    check();
  };
}
