import { pseudonymizeReport, sessionPseudonyms, writeHar, type Exchange, type Report, type SessionReport } from '../../core/index';
import type { DownloadFile } from '../host/lens-adapter';
import type { CaptureSource } from '../model/capture-source';

const CREATOR = { name: 'mcp-stream-lens', version: '0.1.0' };

/** A file name from untrusted text: safe characters only, and short. */
export const safeName = (text: string): string => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'session';

/**
 * The session's exchanges as HAR 1.2 with `_sse`, `_chunks` and `_end`. With `redact`,
 * credentials are blanked and session ids pseudonymized, in the file name too.
 */
export function sessionHar(source: CaptureSource, session: SessionReport, redact: boolean): DownloadFile {
  const exchanges = exchangesOf(source, [session]);
  const key = redact ? (sessionPseudonyms(exchanges).ids.get(session.key) ?? 'redacted') : session.key;
  return harOf(exchanges, redact, `mcp-session-${safeName(key)}.har`);
}

/** Every MCP session of the capture in one HAR: what `mcp-stream-lens check` reads in CI. */
export function captureHar(source: CaptureSource, report: Report, redact: boolean): DownloadFile {
  return harOf(exchangesOf(source, report.sessions), redact, 'mcp-capture.har');
}

/**
 * The report of DESIGN.md section 6, as the CLI prints it with `--format json`. With `redact`,
 * session ids become the same pseudonyms the all-sessions HAR export gives them.
 */
export function reportJson(report: Report, redact: { source: CaptureSource } | false = false): DownloadFile {
  const shown = redact ? pseudonymizeReport(report, sessionPseudonyms(exchangesOf(redact.source, report.sessions))) : report;
  return { name: 'mcp-stream-lens-report.json', type: 'application/json', text: `${JSON.stringify(shown, null, 2)}\n` };
}

/** The sessions' exchanges in capture order, which is the order pseudonyms are handed out in. */
function exchangesOf(source: CaptureSource, sessions: readonly SessionReport[]): Exchange[] {
  const indexes = sessions.flatMap((session) => session.streams.map((s) => s.index)).sort((a, b) => a - b);
  return indexes.flatMap((index) => source.exchange(index) ?? []);
}

function harOf(exchanges: readonly Exchange[], redact: boolean, name: string): DownloadFile {
  const har = writeHar(exchanges, { redact, creator: CREATOR });
  return { name, type: 'application/json', text: JSON.stringify(har, null, 2) };
}
