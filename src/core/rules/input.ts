import type { InputFinding, SessionReport } from '../report';
import { FINDINGS } from './findings';

/**
 * The rules over a whole input (a HAR file, a finished recording): an input that holds no MCP
 * traffic at all is a warning, so a CI job whose capture missed the traffic does not pass in
 * silence.
 */
export function inputFindings(sessions: readonly SessionReport[], exchanges: number): InputFinding[] {
  if (sessions.length > 0) return [];
  const what = exchanges === 0
    ? 'it has no requests at all'
    : `none of its ${exchanges} request${exchanges === 1 ? '' : 's'} is MCP (no MCP header, no JSON-RPC body, no legacy endpoint stream)`;
  return [{ code: 'no-mcp-traffic', severity: FINDINGS['no-mcp-traffic'].severity, message: `The input holds no MCP traffic: ${what}. A capture that started late, or filtered the traffic out, looks like this.` }];
}
