import { FINDINGS, type Finding, type InputFinding, type Report } from '../../core';
import { isChecked, type FileResult } from '../results';
import { element, xmlLines } from './xml';
import { evidenceText } from './evidence';

/** One JUnit test case: a session, a resume, or the input as a whole, with its findings. */
interface Case {
  name: string;
  findings: (Finding | InputFinding)[];
}

/**
 * JUnit XML, as CI test reporters read it: a `testsuite` per file, a `testcase` per session and
 * per resume (the input as a whole when it has findings of its own or no session). Error
 * findings fail their case; warnings and info go to its `system-out`. A file that could not be
 * read is a suite with one case in `error`.
 */
export function formatJunit(results: readonly FileResult[]): string {
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const suites = results.map((result) => {
    if (!isChecked(result)) {
      tests++;
      errors++;
      const failed = element('testcase', { name: 'read the HAR file', classname: result.path }, [element('error', { message: result.error, type: 'unreadable' })]);
      return element('testsuite', { name: result.path, tests: 1, failures: 0, errors: 1, skipped: 0 }, [failed]);
    }
    const cases = casesOf(result.report);
    const failing = cases.filter((c) => c.findings.some((f) => f.severity === 'error')).length;
    tests += cases.length;
    failures += failing;
    return element('testsuite', { name: result.path, tests: cases.length, failures: failing, errors: 0, skipped: 0 }, cases.map((c) => testcase(c, result.path)));
  });
  const root = element('testsuites', { name: 'mcp-stream-lens', tests, failures, errors }, suites);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}

function casesOf(report: Report): Case[] {
  const cases: Case[] = [];
  if (report.findings.length > 0 || report.sessions.length === 0) cases.push({ name: 'input', findings: [...report.findings] });
  for (const session of report.sessions) {
    const resumes = new Map(session.resumes.map((r) => [r.stream, { name: `session ${session.key}: resume #${r.stream} of ${r.of === null ? 'an unknown stream' : `#${r.of}`} (${r.verdict})`, findings: [] as Finding[] }]));
    const own: Case = { name: `session ${session.key}`, findings: [] };
    for (const item of session.findings) (resumes.get(item.stream) ?? own).findings.push(item);
    cases.push(own, ...resumes.values());
  }
  return cases;
}

function testcase(c: Case, classname: string): string {
  const children: string[] = [];
  const failed = c.findings.filter((f) => f.severity === 'error');
  if (failed.length > 0) {
    const message = `${failed.length} error finding${failed.length === 1 ? '' : 's'}: ${[...new Set(failed.map((f) => f.code))].join(', ')}`;
    children.push(element('failure', { message, type: failed[0]!.code }, [xmlLines(failed.flatMap(describe))]));
  }
  const others = c.findings.filter((f) => f.severity !== 'error');
  if (others.length > 0) children.push(element('system-out', {}, [xmlLines(others.flatMap(describe))]));
  return element('testcase', { name: c.name, classname }, children);
}

/** A finding's lines: what, where, the evidence, what it means. */
function describe(item: Finding | InputFinding): string[] {
  const where = 'stream' in item ? ` at #${item.stream}${item.event === null ? '' : ` event ${item.event}`}` : '';
  const evidence = 'evidence' in item ? evidenceText(item.evidence) : '';
  return [`${item.severity} ${item.code}${where}: ${item.message}`, ...(evidence ? [`  evidence: ${evidence}`] : []), `  ${FINDINGS[item.code].explain}`];
}
