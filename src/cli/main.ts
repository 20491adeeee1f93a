import { createAnalyzer, feed, type Report } from '../core';
import { parseCheckArgs, USAGE, type CheckArgs } from './args';
import { readHarFile } from './har-file';
import { progressLine } from './progress';
import { formatText } from './text-format';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Thrown for input we cannot read at all; becomes exit 2 with its one-line message. */
class Unreadable extends Error {}

/** Runs the CLI; resolves to the exit code. Never throws for bad input. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
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
  // A report is all the CLI wants: the analysis need keep no payload.
  const analyzer = createAnalyzer({ appSeqPointers: args.appSeqPointers, keepPayloads: false });
  // Each exchange is analysed as its entry is read, and dropped: the file is never held whole.
  let line: ReturnType<typeof progressLine>;
  const har = await readHarFile(
    file,
    (exchange) => feed(analyzer, [exchange]),
    (size) => (line = progressLine(file, size, process.stderr, args.progress, process.env))?.update,
  );
  line?.end();
  if (!har.ok) throw new Unreadable(`${file}: ${har.reason}`);
  if (har.skippedEntries > 0 || har.problems.length > 0) {
    io.stderr(`mcp-stream-lens: ${file}: ${har.skippedEntries} entries skipped; ${har.problems.join('; ')}`);
  }
  const report = analyzer.report({ final: true });
  return { report, text: args.format === 'text' ? formatText(file, report, analyzer) : '' };
}
