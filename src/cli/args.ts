import { parseArgs } from 'node:util';
import { isJsonPointer } from '../core';

export interface CheckArgs {
  files: string[];
  format: 'text' | 'json';
  appSeqPointers: string[];
  failOn: 'error' | 'warning';
  /** Show reading progress on stderr even where it is no terminal (it is shown on one for files over 50 MB). */
  progress: boolean;
}

export const USAGE = `usage: mcp-stream-lens check FILE.har... [--format text|json] [--app-seq JSON-POINTER]... [--fail-on error|warning] [--progress]

Checks the MCP streams recorded in HAR files for resumes a replica synthesized.
Exit codes: 0 no error finding, 1 error findings (or warnings with --fail-on warning), 2 unreadable input.`;

/** Parses `check` arguments; a string is a one-line usage error. */
export function parseCheckArgs(argv: readonly string[]): CheckArgs | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        format: { type: 'string', default: 'text' },
        'app-seq': { type: 'string', multiple: true, default: [] },
        'fail-on': { type: 'string', default: 'error' },
        progress: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values, positionals } = parsed;
  const [command, ...files] = positionals;
  if (command !== 'check') return command === undefined ? 'missing command: check' : `unknown command: ${command}`;
  if (files.length === 0) return 'check needs at least one HAR file';
  if (values.format !== 'text' && values.format !== 'json') return `--format must be text or json, not ${values.format}`;
  if (values['fail-on'] !== 'error' && values['fail-on'] !== 'warning') return `--fail-on must be error or warning, not ${values['fail-on']}`;
  const bad = values['app-seq'].find((pointer) => !isJsonPointer(pointer));
  if (bad !== undefined) return `--app-seq ${JSON.stringify(bad)} is not a JSON pointer (RFC 6901, like /params/data/seq)`;
  return { files, format: values.format, appSeqPointers: values['app-seq'], failOn: values['fail-on'], progress: values.progress };
}
