import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isJsonPointer } from '../core';
import { closest } from './closest';

/** The output formats of `check`. */
export const FORMATS = ['text', 'json', 'junit', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export interface CheckArgs {
  /** HAR files, folders, globs, or `-` for standard input, as given. */
  inputs: string[];
  format: Format;
  /** Where `format` goes instead of standard output (which then gets the text report). */
  output: string | undefined;
  appSeqPointers: string[];
  failOn: 'error' | 'warning';
  /** Show reading progress on stderr even where it is no terminal (it is shown on one for files over 50 MB). */
  progress: boolean;
}

export const USAGE = `usage: mcp-stream-lens check FILE.har|DIR|GLOB|-... [--format text|json|junit|sarif|github] [--output FILE]
                            [--app-seq JSON-POINTER]... [--fail-on error|warning] [--progress]
       mcp-stream-lens proxy|record --target [NAME=]URL... (mcp-stream-lens proxy --help for more)
       mcp-stream-lens --version | --help

Checks the MCP streams recorded in HAR files for resumes a replica synthesized.
A folder is searched for *.har files; - reads one HAR from standard input.
--output FILE writes the format to FILE and the text report to the terminal.
--progress shows how much of a file is read on stderr (shown anyway on a terminal, outside CI, for files over 50 MB).
Exit codes: 0 no error finding, 1 error findings (or warnings with --fail-on warning), 2 unreadable input.`;

const OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  format: { type: 'string', default: 'text' },
  output: { type: 'string', short: 'o' },
  'app-seq': { type: 'string', multiple: true, default: [] },
  'fail-on': { type: 'string', default: 'error' },
  progress: { type: 'boolean', default: false },
};

/** Every flag `check` knows, for the "did you mean" of an unknown one. */
const KNOWN_FLAGS = [...Object.keys(OPTIONS), 'help', 'version'].map((name) => `--${name}`);

/** Parses `check`'s arguments (after the command); a string is a one-line usage error. */
export function parseCheckArgs(argv: readonly string[]): CheckArgs | string {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: false, tokens: true, options: OPTIONS });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option') continue;
    if (!(token.name in OPTIONS)) return unknownFlag(token.rawName);
    if (OPTIONS[token.name]!.type === 'string' && token.value === undefined) return `${token.rawName} needs a value`;
    if (OPTIONS[token.name]!.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`;
  }
  const { values, positionals: inputs } = parsed;
  const format = String(values.format);
  const failOn = String(values['fail-on']);
  const pointers = (values['app-seq'] as (string | boolean)[]).map(String);
  if (inputs.length === 0) return 'check needs at least one HAR file, folder or -';
  if (!isFormat(format)) return `--format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`;
  if (failOn !== 'error' && failOn !== 'warning') return `--fail-on must be error or warning, not ${JSON.stringify(failOn)}`;
  const bad = pointers.find((pointer) => !isJsonPointer(pointer));
  if (bad !== undefined) return `--app-seq ${JSON.stringify(bad)} is not a JSON pointer (RFC 6901, like /params/data/seq)`;
  if (inputs.filter((input) => input === '-').length > 1) return 'standard input (-) can be read only once';
  const output = values.output === undefined ? undefined : String(values.output);
  return { inputs, format, output, appSeqPointers: pointers, failOn, progress: values.progress === true };
}

function isFormat(format: string): format is Format {
  return (FORMATS as readonly string[]).includes(format);
}

/** One line naming the unknown flag and, when one is close, the flag that was meant. */
export function unknownFlag(raw: string): string {
  const flag = raw.startsWith('--') ? raw : `--${raw.replace(/^-/, '')}`;
  const near = closest(flag, KNOWN_FLAGS);
  return `unknown option ${JSON.stringify(raw)}${near === undefined ? '' : `; did you mean ${near}?`}`;
}
