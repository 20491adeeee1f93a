import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createAnalyzer, feed, readHar, type Report } from '../core';
import { parseCheckArgs, USAGE, type CheckArgs } from './args';
import { runProxyCommand } from './proxy-command';
import { formatText } from './text-format';

/** A HAR bigger than this is refused rather than read into memory whole. */
export const MAX_HAR_BYTES = 512 * 1024 * 1024;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Thrown for input we cannot read at all; becomes exit 2 with its one-line message. */
class Unreadable extends Error {}

/** Runs the CLI; resolves to the exit code. Never throws for bad input. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === 'proxy' || argv[0] === 'record') return runProxyCommand(argv.slice(1), io, argv[0]);
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  const args = parseCheckArgs(argv);
  if (typeof args === 'string') {
    io.stderr(`mcp-stream-lens: ${args}\n${USAGE}`);
    return 2;
  }
  const results: { file: string; report: Report }[] = [];
  const texts: string[] = [];
  try {
    for (const file of args.files) {
      const { report, text } = await checkFile(file, args, io);
      results.push({ file, report });
      texts.push(text);
    }
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    io.stderr(`mcp-stream-lens: ${error.message}`);
    return 2;
  }
  if (args.format === 'json') io.stdout(JSON.stringify(results.length === 1 ? results[0]!.report : results, null, 2));
  else io.stdout(texts.join('\n\n'));
  const failing = results.some(({ report }) => report.summary.errors > 0 || (args.failOn === 'warning' && report.summary.warnings > 0));
  return failing ? 1 : 0;
}

async function checkFile(file: string, args: CheckArgs, io: Io): Promise<{ report: Report; text: string }> {
  const text = await readText(file);
  const har = readHar(text, { loadFile: (name) => loadSibling(file, name) });
  if (!har.ok) throw new Unreadable(`${file}: ${har.reason}`);
  if (har.skippedEntries > 0 || har.problems.length > 0) {
    io.stderr(`mcp-stream-lens: ${file}: ${har.skippedEntries} entries skipped; ${har.problems.join('; ')}`);
  }
  // A report is all the CLI wants: the analysis need keep no payload.
  const analyzer = createAnalyzer({ appSeqPointers: args.appSeqPointers, keepPayloads: false });
  feed(analyzer, har.exchanges);
  const report = analyzer.report({ final: true });
  return { report, text: args.format === 'text' ? formatText(file, report, analyzer) : '' };
}

async function readText(file: string): Promise<string> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new Unreadable(`${file}: is a directory, not a HAR file`);
    if (info.size > MAX_HAR_BYTES) throw new Unreadable(`${file}: ${info.size} bytes is over the ${MAX_HAR_BYTES}-byte limit`);
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new Unreadable(`${file}: cannot read (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})`);
  }
}

/**
 * Playwright's `attach` mode stores bodies in files beside the HAR. Only plain names are taken:
 * a hostile HAR must not make us read `/etc/passwd` or `../secrets`.
 */
function loadSibling(harFile: string, name: string): Uint8Array | undefined {
  if (name !== basename(name) || name.startsWith('.')) return undefined;
  try {
    return readFileSync(join(dirname(harFile), name));
  } catch {
    return undefined;
  }
}
