import { FINDINGS, type Finding, type FindingCode, type InputFinding, type Report, type Severity } from '../core';
import { evidenceText } from '../cli/formats/evidence';
import { printable } from '../cli/formats/text';

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/** A finding with where it is, for the diff. */
export interface LocatedFinding {
  finding: Finding | InputFinding;
  /** The session's key, or undefined for a finding about the input as a whole. */
  session?: string;
}

/** The findings of `report` at `failOn` or worse, in report order. */
export function findingsAtLeast(report: Report, failOn: Severity): LocatedFinding[] {
  const all: LocatedFinding[] = [...report.findings.map((finding) => ({ finding })), ...report.sessions.flatMap((s) => s.findings.map((finding) => ({ finding, session: s.key })))];
  return all.filter(({ finding }) => RANK[finding.severity] >= RANK[failOn]);
}

/** What differs between the codes a test expects and the findings a capture has. */
export interface FindingsDiff {
  /** Findings the test did not expect. */
  unexpected: LocatedFinding[];
  /** Codes the test expected and the capture does not have (once per missing occurrence). */
  missing: FindingCode[];
  /** Findings that were expected. */
  matched: LocatedFinding[];
}

/** Matches expected codes to findings one for one, as a multiset. */
export function diffFindings(actual: readonly LocatedFinding[], expected: readonly FindingCode[]): FindingsDiff {
  const left = [...expected];
  const unexpected: LocatedFinding[] = [];
  const matched: LocatedFinding[] = [];
  for (const item of actual) {
    const at = left.indexOf(item.finding.code);
    if (at < 0) unexpected.push(item);
    else {
      left.splice(at, 1);
      matched.push(item);
    }
  }
  return { unexpected, missing: left, matched };
}

/**
 * The diff as a test failure shows it: `-` for an expected code that did not occur, `+` for a
 * finding the test did not expect (with its evidence and the client-side advice), and the
 * resumes' verdicts for context.
 */
export function formatDiff(file: string, report: Report, diff: FindingsDiff, failOn: Severity): string {
  const lines = [`mcp-stream-lens: ${printable(file, 200)}: the findings (${failOn} and worse) differ from what the test expects`, '', '- expected', '+ found', ''];
  for (const { finding, session } of diff.matched) lines.push(`  ${describe(finding, session)}`);
  for (const code of diff.missing) lines.push(`- ${code}  (${FINDINGS[code].title})`);
  for (const { finding, session } of diff.unexpected) {
    lines.push(`+ ${describe(finding, session)}`);
    const evidence = 'evidence' in finding ? evidenceText(finding.evidence) : '';
    if (evidence) lines.push(`    evidence: ${evidence}`);
    lines.push(`    advice: ${FINDINGS[finding.code].advice.client}`);
  }
  const verdicts = report.sessions.flatMap((s) => s.resumes.map((r) => `resume #${r.stream} of ${r.of === null ? 'an unknown stream' : `#${r.of}`}: ${r.verdict}`));
  if (verdicts.length > 0) lines.push('', ...verdicts);
  return lines.join('\n');
}

function describe(finding: Finding | InputFinding, session: string | undefined): string {
  const where = 'stream' in finding ? `session ${printable(session ?? '', 40)} #${finding.stream}${finding.event === null ? '' : ` event ${finding.event}`}: ` : '';
  return `${finding.severity} ${finding.code}  ${where}${printable(finding.message, 300)}`;
}
