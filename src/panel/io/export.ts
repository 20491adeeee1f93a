import { writeHar, type Report, type SessionReport } from '../../core/index';
import type { DownloadFile } from '../host/lens-adapter';
import type { CaptureSource } from '../model/capture-source';

const CREATOR = { name: 'mcp-stream-lens', version: '0.1.0' };

/** A file name from untrusted text: safe characters only, and short. */
export const safeName = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'session';

/** The session's exchanges as HAR 1.2 with `_sse`, `_chunks` and `_end`; credentials redacted unless told. */
export function sessionHar(source: CaptureSource, session: SessionReport, redact: boolean): DownloadFile {
  return harOf(source, [session], redact, `mcp-session-${safeName(session.key)}.har`);
}

/** Every MCP session of the capture in one HAR: what `mcp-stream-lens check` reads in CI. */
export function captureHar(source: CaptureSource, report: Report, redact: boolean): DownloadFile {
  return harOf(source, report.sessions, redact, 'mcp-capture.har');
}

function harOf(source: CaptureSource, sessions: readonly SessionReport[], redact: boolean, name: string): DownloadFile {
  const indexes = sessions.flatMap((session) => session.streams.map((s) => s.index)).sort((a, b) => a - b);
  const exchanges = indexes.flatMap((index) => source.exchange(index) ?? []);
  const har = writeHar(exchanges, { redact, creator: CREATOR });
  return { name, type: 'application/json', text: JSON.stringify(har, null, 2) };
}

/** The report of DESIGN.md section 6, as the CLI prints it with `--format json`. */
export function reportJson(report: Report): DownloadFile {
  return { name: 'mcp-stream-lens-report.json', type: 'application/json', text: `${JSON.stringify(report, null, 2)}\n` };
}
