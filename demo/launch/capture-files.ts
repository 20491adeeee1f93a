import { analyze, harToExchanges, type Report } from '../../src/core/index.js';
import type { ExchangeLog } from '../lb/exchange.js';
import { toHar } from '../lb/har.js';

/**
 * The report of what the load balancer saw of one run, from its own recording. The headless demo
 * uses it only to know when the panel has caught up (the same streams and events); the files it
 * writes are the panel's own exports (see panel-exports.ts).
 */
export function recordingReport(log: ExchangeLog): Report {
  const read = harToExchanges(toHar(log.all()));
  if (!read.ok) throw new Error(`the load balancer's recording is not readable: ${read.reason}`);
  return analyze(read.exchanges);
}

/** One line per session: transport, resume verdicts and finding codes. */
export function summarize(report: Report): string[] {
  return report.sessions.map((s) => {
    const verdicts = s.resumes.map((r) => r.verdict).join(', ') || 'no resume';
    const findings = s.findings.map((f) => `${f.severity} ${f.code}`).join(', ') || 'no findings';
    return `${s.transport} ${s.protocolVersion ?? ''} session: ${verdicts}; ${findings}`;
  });
}
