import type { Analyzer, Finding } from '../core';
import type { LiveUpdate } from '../proxy/analysis-protocol';
import { formatFinding, formatResume, formatSession } from './formats/text';

/**
 * Findings about what has not happened (yet): live, a call whose stream just broke has no
 * response only until its resume delivers one. They are judged once, in the final report.
 */
const FINAL_ONLY: ReadonlySet<string> = new Set(['result-lost']);

/**
 * What the proxy prints while it runs, read from its live analysis: each finding the first time
 * the analysis reports it, under its session's heading as `check` prints it, and each resume's
 * verdict once its stream has ended. Each call returns what is new since the last one.
 */
export function createLiveFindings(analyzer: Analyzer): () => LiveUpdate {
  const printed = new Set<string>();
  let lastSession: string | undefined;

  return () => {
    const lines: string[] = [];
    const print = (session: string, heading: string, text: string) => {
      if (session !== lastSession) lines.push(heading);
      lastSession = session;
      lines.push(`  ${text}`);
    };
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
    // Counted as they are printed: findings judged only at the end are not counted live.
    const live = report.sessions.flatMap((s) => s.findings).filter((f) => !FINAL_ONLY.has(f.code));
    const { sessions, streams, events } = report.summary;
    return {
      lines,
      counts: { sessions, streams, events, errors: live.filter((f) => f.severity === 'error').length, warnings: live.filter((f) => f.severity === 'warning').length },
    };
  };
}
