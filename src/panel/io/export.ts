import { writeHar, type Report, type SessionReport } from '../../core/index';
import type { DownloadFile } from '../host/lens-adapter';
import type { CaptureSource } from '../model/capture-source';

const CREATOR = { name: 'mcp-stream-lens', version: '0.1.0' };

/** A file name from untrusted text: safe characters only, and short. */
export const safeName = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'session';

/** The session's exchanges as HAR 1.2 with `_sse`, `_chunks` and `_end`; credentials redacted unless told. */
export function sessionHar(source: CaptureSource, session: SessionReport, redact: boolean): DownloadFile {
  const exchanges = session.streams.flatMap((s) => source.exchange(s.index) ?? []);
  const har = writeHar(exchanges, { redact, creator: CREATOR });
  return { name: `mcp-session-${safeName(session.key)}.har`, type: 'application/json', text: JSON.stringify(har, null, 2) };
}

/** The report of DESIGN.md section 6, as the CLI prints it with `--format json`. */
export function reportJson(report: Report): DownloadFile {
  return { name: 'mcp-stream-lens-report.json', type: 'application/json', text: `${JSON.stringify(report, null, 2)}\n` };
}
