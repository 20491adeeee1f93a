import type { Finding, ResumeReport, SessionReport, Severity, Verdict } from '../../core';
import { plain, type Paint, type Style } from '../color';
import type { EventIds } from '../analysis';
import type { Checked, Totals } from '../results';

/**
 * Control characters, C1 codes and bidi overrides from a hostile stream could rewrite the
 * terminal or reorder the line; show them as escapes.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export function printable(text: string, max = 120): string {
  const clean = text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** An untrusted value in quotes, cut inside them (`"abc…"`), so the quote always closes. */
export function quoted(text: string, max = 60): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return printable(JSON.stringify(cut), Infinity);
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const SEVERITY_STYLE: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'dim' };
const VERDICT_STYLE: Record<Verdict, Style> = { genuine: 'green', rejected: 'green', expired: 'dim', gap: 'red', duplicate: 'red', unverifiable: 'yellow', empty: 'yellow' };

/** The short human report: each session, each resume with its verdict, each finding and its event. */
export function formatText({ path, report, ids }: Checked, paint: Paint = plain): string {
  const { summary } = report;
  const counts = `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}`;
  const lines = [
    `${paint('bold', printable(path))}: ${plural(summary.sessions, 'session')}, ${plural(summary.streams, 'stream')}, ${plural(summary.events, 'event')}; ` +
      (summary.errors ? paint('red', counts) : summary.warnings ? paint('yellow', counts) : counts) +
      (summary.ignoredExchanges ? ` (${summary.ignoredExchanges} non-MCP requests ignored)` : ''),
  ];
  for (const item of report.findings) lines.push(`  ${paint(SEVERITY_STYLE[item.severity], item.severity.padEnd(7))} ${item.code}: ${printable(item.message, 400)}`);
  for (const session of report.sessions) {
    lines.push('', formatSession(session));
    for (const stream of session.streams) {
      const end = stream.end === 'reset' && stream.error ? `reset (${printable(stream.error, 60)})` : stream.end;
      const resume = stream.lastEventId === null ? '' : `  Last-Event-ID ${quoted(stream.lastEventId)}`;
      lines.push(`  #${stream.index} ${stream.method} ${printable(stream.url, 80)} -> ${stream.status || 'no response'}, ${plural(stream.events, 'event')}, ${end}${resume}`);
    }
    for (const resume of session.resumes) lines.push(`  ${formatResume(resume, paint)}`);
    for (const item of session.findings) lines.push(`  ${formatFinding(item, ids, paint)}`);
  }
  return lines.join('\n');
}

/** A session's heading line: its key, transport and revision. */
export function formatSession(session: SessionReport): string {
  return `session ${printable(session.key)}  ${session.transport}${session.protocolVersion ? ` ${printable(session.protocolVersion)}` : ''}`;
}

/** One resume and its verdict. */
export function formatResume(resume: ResumeReport, paint: Paint = plain): string {
  const of = resume.of === null ? 'an unknown stream' : `#${resume.of}`;
  return `resume #${resume.stream} of ${of}: ${paint(VERDICT_STYLE[resume.verdict], resume.verdict.toUpperCase())}`;
}

/** One finding, where it is (stream, event and its id) and what it says. */
export function formatFinding(item: Finding, ids: EventIds, paint: Paint = plain): string {
  let where = `#${item.stream}`;
  if (item.event !== null) {
    const id = ids.events(item.stream).idAt(item.event);
    where += ` event ${item.event}${id === undefined ? '' : ` (id ${quoted(id)})`}`;
  }
  return `${paint(SEVERITY_STYLE[item.severity], item.severity.padEnd(7))} ${item.code}  ${where}: ${printable(item.message, 400)}`;
}

/** The line under several files' reports: the totals across them. */
export function formatTotals(sum: Totals, paint: Paint = plain): string {
  const counts = `${plural(sum.errors, 'error')}, ${plural(sum.warnings, 'warning')}`;
  const unread = sum.unreadable ? `, ${paint('red', `${sum.unreadable} unreadable`)}` : '';
  return `${paint('bold', 'total')}: ${plural(sum.files, 'file')}${unread}, ${plural(sum.sessions, 'session')}, ${plural(sum.streams, 'stream')}; ${sum.errors ? paint('red', counts) : counts}`;
}
