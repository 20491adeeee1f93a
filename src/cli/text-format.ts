import type { Analyzer, Finding, Report, ResumeReport, SessionReport } from '../core';

/**
 * Control characters, C1 codes and bidi overrides from a hostile stream could rewrite the
 * terminal or reorder the line; show them as escapes.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export function printable(text: string, max = 120): string {
  const clean = text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The short human report: each session, each resume with its verdict, each finding and its event. */
export function formatText(file: string, report: Report, analyzer: Analyzer): string {
  const { summary } = report;
  const lines = [
    `${printable(file)}: ${plural(summary.sessions, 'session')}, ${plural(summary.streams, 'stream')}, ${plural(summary.events, 'event')}; ` +
      `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}` +
      (summary.ignoredExchanges ? ` (${summary.ignoredExchanges} non-MCP requests ignored)` : ''),
  ];
  for (const item of report.findings) lines.push(`  ${item.severity.padEnd(7)} ${item.code}: ${printable(item.message, 400)}`);
  for (const session of report.sessions) {
    lines.push('', formatSession(session));
    for (const stream of session.streams) {
      const end = stream.end === 'reset' && stream.error ? `reset (${printable(stream.error, 60)})` : stream.end;
      const resume = stream.lastEventId === null ? '' : `  Last-Event-ID ${printable(JSON.stringify(stream.lastEventId), 60)}`;
      lines.push(`  #${stream.index} ${stream.method} ${printable(stream.url, 80)} -> ${stream.status || 'no response'}, ${plural(stream.events, 'event')}, ${end}${resume}`);
    }
    for (const resume of session.resumes) lines.push(`  ${formatResume(resume)}`);
    for (const item of session.findings) lines.push(`  ${formatFinding(item, analyzer)}`);
  }
  return lines.join('\n');
}

/** A session's heading line: its key, transport and revision. */
export function formatSession(session: SessionReport): string {
  return `session ${printable(session.key)}  ${session.transport}${session.protocolVersion ? ` ${printable(session.protocolVersion)}` : ''}`;
}

/** One resume and its verdict. */
export function formatResume(resume: ResumeReport): string {
  const of = resume.of === null ? 'an unknown stream' : `#${resume.of}`;
  return `resume #${resume.stream} of ${of}: ${resume.verdict.toUpperCase()}`;
}

/** One finding, where it is (stream, event and its id) and what it says. */
export function formatFinding(item: Finding, analyzer: Analyzer): string {
  let where = `#${item.stream}`;
  if (item.event !== null) {
    const id = analyzer.events(item.stream).idAt(item.event);
    where += ` event ${item.event}${id === undefined ? '' : ` (id ${printable(JSON.stringify(id), 60)})`}`;
  }
  return `${item.severity.padEnd(7)} ${item.code}  ${where}: ${printable(item.message, 400)}`;
}
