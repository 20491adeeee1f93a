import { FINDINGS, type Finding, type InputFinding, type Severity } from '../../core';
import { isChecked, posixPath, totals, type FileResult } from '../results';
import { evidenceText } from './evidence';
import { printable } from './text';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

// GitHub's workflow-command escapes: a value cannot end the command or start a new one.
const escapeData = (text: string): string => printable(text, 1000).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * GitHub Actions workflow commands: one `::error` (or `::warning`, `::notice`) line per
 * finding, on the HAR file, titled by its code and the findings table's title. An unreadable
 * file is an `::error` of its own.
 */
export function formatGithub(results: readonly FileResult[]): string {
  const lines: string[] = [];
  const annotate = (severity: Severity, file: string, title: string, message: string) =>
    lines.push(`::${COMMAND[severity]} file=${escapeProperty(posixPath(file))},title=${escapeProperty(title)}::${escapeData(message)}`);
  for (const result of results) {
    if (!isChecked(result)) {
      annotate('error', result.path, 'mcp-stream-lens: unreadable HAR file', result.error);
      continue;
    }
    const all: (Finding | InputFinding)[] = [...result.report.findings, ...result.report.sessions.flatMap((s) => s.findings)];
    for (const item of all) {
      const evidence = 'evidence' in item ? evidenceText(item.evidence) : '';
      annotate(item.severity, result.path, `${item.code}: ${FINDINGS[item.code].title}`, `${item.message}${evidence ? ` (${evidence})` : ''} ${FINDINGS[item.code].advice.client}`);
    }
  }
  return lines.join('\n');
}

/** Untrusted text for Markdown: every ASCII punctuation mark escaped, so none is markup or HTML. */
const md = (text: string): string => printable(text, 300).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);

/** The job summary (`GITHUB_STEP_SUMMARY`): a table of files, then each file's findings. */
export function githubSummary(results: readonly FileResult[]): string {
  const sum = totals(results);
  const lines = [
    '## MCP Stream Lens',
    '',
    `${sum.files} file${sum.files === 1 ? '' : 's'}: ${sum.errors} errors, ${sum.warnings} warnings${sum.unreadable ? `, ${sum.unreadable} unreadable` : ''}.`,
    '',
    '| File | Sessions | Resumes | Errors | Warnings |',
    '| --- | ---: | --- | ---: | ---: |',
  ];
  for (const result of results) {
    if (!isChecked(result)) {
      lines.push(`| ${md(result.path)} | | unreadable: ${md(result.error)} | | |`);
      continue;
    }
    const { report } = result;
    const verdicts = report.sessions.flatMap((s) => s.resumes.map((r) => `#${r.stream} ${r.verdict}`)).join(', ') || 'none';
    lines.push(`| ${md(result.path)} | ${report.summary.sessions} | ${verdicts} | ${report.summary.errors} | ${report.summary.warnings} |`);
  }
  for (const result of results) {
    if (!isChecked(result)) continue;
    const all: (Finding | InputFinding)[] = [...result.report.findings, ...result.report.sessions.flatMap((s) => s.findings)];
    const shown = all.filter((f) => f.severity !== 'info');
    if (shown.length === 0) continue;
    lines.push('', `### ${md(result.path)}`, '');
    for (const item of shown) {
      const where = 'stream' in item ? ` (#${item.stream}${item.event === null ? '' : ` event ${item.event}`})` : '';
      lines.push(`- **${item.severity}** ${md(item.code)}${where}: ${md(item.message)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
