import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyze, harToExchanges, writeHar, type Report } from '../../src/core/index.js';
import type { ExchangeLog } from '../lb/exchange.js';
import { toHar } from '../lb/har.js';

/**
 * Writes `capture.har` and `report.json` for one scenario run and returns the report.
 *
 * TODO(issue 4): take both from the panel's own HAR export and live report once the panel has
 * them. The extension panel of issue 3 exposes neither, so for now they come from the load
 * balancer's recording of the same traffic (what the browser sent and received through it),
 * read and written by the same core the panel runs: `writeHar` for the HAR (with `_sse` events,
 * credentials redacted), `analyze` for the report.
 */
export async function writeCaptureFiles(log: ExchangeLog, outDir: string): Promise<Report> {
  const read = harToExchanges(toHar(log.all()));
  if (!read.ok) throw new Error(`the load balancer's recording is not readable: ${read.reason}`);
  const report = analyze(read.exchanges);
  const har = writeHar(read.exchanges, { creator: { name: 'mcp-stream-lens-demo', version: '0.1.0' } });
  await writeFile(join(outDir, 'capture.har'), `${JSON.stringify(har, null, 2)}\n`);
  await writeFile(join(outDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** One line per session: transport, resume verdicts and finding codes. */
export function summarize(report: Report): string[] {
  return report.sessions.map((s) => {
    const verdicts = s.resumes.map((r) => r.verdict).join(', ') || 'no resume';
    const findings = s.findings.map((f) => `${f.severity} ${f.code}`).join(', ') || 'no findings';
    return `${s.transport} ${s.protocolVersion ?? ''} session: ${verdicts}; ${findings}`;
  });
}
