import { describe, expect, it } from 'vitest';
import { analyze, readHar, type Exchange, type Report } from '../../core/index';
import { exchange, ORIGIN, rpc, sse, withoutEntries } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { createImportedSource } from '../model/imported-source';
import { captureHar, reportJson, sessionHar } from './export';

/** A capture of two streamable-HTTP sessions and a legacy one, with credentials on the wire. */
function capture(): Exchange[] {
  const rename = (list: Exchange[], id: string) =>
    list.map((x) => ({
      ...x,
      headers: [...x.headers.map((h) => (/mcp-session-id/i.test(h.name) ? { ...h, value: id } : h)), { name: 'Authorization', value: 'Bearer secret-token' }],
      responseHeaders: x.responseHeaders.map((h) => (/mcp-session-id/i.test(h.name) ? { ...h, value: id } : h)),
    }));
  const legacy = 'legacy-0b6f7c1e-5a54';
  return [
    ...rename(scenarios.lostBuffer(), 'aaaa-first-session-id'),
    ...rename(scenarios.genuine(), 'bbbb-second-session-id'),
    exchange({ method: 'GET', url: `${ORIGIN}/sse`, text: sse([{ event: 'endpoint', data: `/messages?sessionId=${legacy}` }, { event: 'message', data: rpc.result(1) }]) }),
    exchange({ url: `${ORIGIN}/messages?sessionId=${legacy}`, body: rpc.call(1), status: 202, contentType: 'text/plain', text: 'Accepted' }),
  ];
}
const REAL = ['aaaa-first-session-id', 'bbbb-second-session-id', 'legacy-0b6f7c1e-5a54', 'secret-token'];

const analysed = () => {
  const source = createImportedSource('f', 'f.har', capture(), {});
  return { source, report: source.report.value! };
};
const reportOfHar = (text: string): Report => {
  const result = readHar(text);
  if (!result.ok) throw new Error(result.reason);
  return analyze(result.exchanges);
};

describe('panel exports with redaction on (the default setting)', () => {
  it('the all-sessions HAR and the report JSON carry no session id or credential, and agree on the pseudonyms', () => {
    const { source, report } = analysed();
    const har = captureHar(source, report, true);
    const json = reportJson(report, { source });
    for (const secret of REAL) {
      expect(har.text).not.toContain(secret);
      expect(json.text).not.toContain(secret);
    }
    const exported = JSON.parse(json.text) as Report;
    expect(exported.sessions.map((s) => s.key)).toEqual(['redacted-1', 'redacted-2', 'redacted-3']);
    // Re-importing the HAR gives the very report that was exported next to it, except that its
    // findings' evidence now names the HAR entry each came from (a live capture has none).
    expect(withoutEntries(reportOfHar(har.text))).toEqual(withoutEntries(exported));
    expect(exported.sessions[2]!.streams[1]!.url).toBe(`${ORIGIN}/messages?sessionId=redacted-3`);
  });

  it('a session HAR is named by its pseudonym, not its id', () => {
    const { source, report } = analysed();
    const file = sessionHar(source, report.sessions[1]!, true);
    expect(file.name).toBe('mcp-session-redacted-1.har');
    expect(file.text).not.toContain('bbbb-second-session-id');
    expect(reportOfHar(file.text).sessions.map((s) => s.key)).toEqual(['redacted-1']);
  });

  it('with redaction off, the exports keep the real ids and credentials', () => {
    const { source, report } = analysed();
    const har = captureHar(source, report, false);
    const json = reportJson(report, false);
    for (const secret of REAL) expect(har.text).toContain(secret);
    expect(JSON.parse(json.text)).toEqual(report);
    expect(sessionHar(source, report.sessions[0]!, false).name).toBe('mcp-session-aaaa-first-session-id.har');
  });
});
