import { FINDINGS, type FindingCode, type Severity } from '../../core';
import { isChecked, posixPath, type FileResult } from '../results';
import { STDIN } from '../har-file';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };
const CODES = Object.keys(FINDINGS) as FindingCode[];

/**
 * SARIF 2.1.0: one run, one rule per finding code from the findings table (title, meaning,
 * advice, severity as level), one result per finding, located in the HAR file and, as a logical
 * location, the HAR entry (`log.entries[N]`) and the session's stream. An unreadable file is a
 * tool execution notification, and makes the invocation unsuccessful.
 */
export function formatSarif(results: readonly FileResult[], toolVersion: string): string {
  const rules = CODES.map((code) => {
    const info = FINDINGS[code];
    const help = `${info.explain}\nClient: ${info.advice.client}\nServer: ${info.advice.server}`;
    return {
      id: code,
      name: code.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase()),
      shortDescription: { text: info.title },
      fullDescription: { text: info.explain },
      help: { text: help, markdown: `${info.explain}\n\n- **Client:** ${info.advice.client}\n- **Server:** ${info.advice.server}` },
      defaultConfiguration: { level: LEVEL[info.severity] },
      properties: { tags: ['mcp', 'sse'] },
    };
  });
  const artifacts: { location: { uri: string } }[] = [];
  const sarifResults: object[] = [];
  const notifications: object[] = [];
  for (const result of results) {
    const uri = uriOf(result.path);
    if (!isChecked(result)) {
      notifications.push({ level: 'error', message: { text: `${result.path}: ${result.error}` }, locations: [{ physicalLocation: { artifactLocation: { uri } } }] });
      continue;
    }
    const index = artifacts.push({ location: { uri } }) - 1;
    const file = { artifactLocation: { uri, index } };
    for (const item of result.report.findings) {
      sarifResults.push({ ruleId: item.code, ruleIndex: CODES.indexOf(item.code), level: LEVEL[item.severity], message: { text: item.message }, locations: [{ physicalLocation: file }] });
    }
    for (const session of result.report.sessions) {
      for (const item of session.findings) {
        const entry = item.evidence?.entry;
        const logical = [
          ...(entry === undefined ? [] : [{ name: `entries[${entry}]`, fullyQualifiedName: `log.entries[${entry}]`, kind: 'element' }]),
          { name: `#${item.stream}${item.event === null ? '' : ` event ${item.event}`}`, fullyQualifiedName: `session ${session.key} / stream #${item.stream}`, kind: 'object' },
        ];
        sarifResults.push({
          ruleId: item.code,
          ruleIndex: CODES.indexOf(item.code),
          level: LEVEL[item.severity],
          message: { text: item.message },
          locations: [{ physicalLocation: file, logicalLocations: logical }],
          properties: { session: session.key, stream: item.stream, event: item.event, ...(item.evidence && { evidence: item.evidence }) },
        });
      }
    }
  }
  const log = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'mcp-stream-lens', version: toolVersion, rules } },
        invocations: [{ executionSuccessful: notifications.length === 0, toolExecutionNotifications: notifications }],
        artifacts,
        results: sarifResults,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}

/** A relative URI reference for a path (SARIF viewers resolve it against the checkout). */
function uriOf(path: string): string {
  if (path === STDIN) return 'stdin';
  const posix = posixPath(path);
  const encoded = posix.split('/').map(encodeURIComponent).join('/');
  return posix.startsWith('/') ? `file://${encoded}` : encoded;
}
