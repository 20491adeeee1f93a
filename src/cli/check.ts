import { appendFile, writeFile } from 'node:fs/promises';
import { analyseHere, type FileAnalysis } from './analysis';
import { parseCheckArgs, type CheckArgs, type Format } from './args';
import { ansi, plain } from './color';
import { createEntryLineScanner } from './entry-lines';
import { formatGithub, githubSummary } from './formats/github';
import { formatJson } from './formats/json';
import { formatJunit } from './formats/junit';
import { formatSarif } from './formats/sarif';
import { formatText, formatTotals } from './formats/text';
import { readHarFile } from './har-file';
import { expandInputs } from './inputs';
import { processStdin } from './stdin';
import { progressLine } from './progress';
import type { Io } from './io';
import { isChecked, totals, type FileResult } from './results';
import { packageVersion } from './version';

/** `check`: reads every input, prints the chosen format; resolves to the exit code. */
export async function runCheck(argv: readonly string[], io: Io): Promise<number> {
  const args = parseCheckArgs(argv);
  if (typeof args === 'string') {
    io.stderr(`mcp-stream-lens: ${args} (mcp-stream-lens --help shows the usage)`);
    return 2;
  }
  const results: FileResult[] = [];
  for (const input of await expandInputs(args.inputs)) {
    const result = 'error' in input ? input : await checkOne(input.path, args, io);
    // Each unreadable input on its own line, as it happens; the others are still checked.
    if (!isChecked(result)) io.stderr(`mcp-stream-lens: ${result.path}: ${result.error}`);
    results.push(result);
  }
  const formatted = render(args.format, results, io);
  if (args.output === undefined) {
    if (formatted !== '') io.stdout(formatted);
  } else {
    try {
      await writeFile(args.output, formatted.endsWith('\n') ? formatted : `${formatted}\n`);
    } catch (error) {
      io.stderr(`mcp-stream-lens: cannot write ${args.output} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      return 2;
    }
    // The file gets the format; the terminal still gets the report a person reads.
    if (args.format !== 'text') io.stdout(render('text', results, io));
  }
  const summaryFile = io.env?.GITHUB_STEP_SUMMARY;
  if (args.format === 'github' && summaryFile) {
    await appendFile(summaryFile, githubSummary(results)).catch((error: NodeJS.ErrnoException) => io.stderr(`mcp-stream-lens: cannot write the job summary (${error.code ?? String(error)})`));
  }
  const sum = totals(results);
  if (sum.unreadable > 0) return 2;
  return sum.errors > 0 || (args.failOn === 'warning' && sum.warnings > 0) ? 1 : 0;
}

async function checkOne(path: string, args: CheckArgs, io: Io): Promise<FileResult> {
  // A report is all the CLI wants: the analysis need keep no payload.
  const options = { appSeqPointers: args.appSeqPointers, keepPayloads: false };
  const analyse = io.analyse ?? analyseHere;
  let analysis: FileAnalysis | undefined;
  let line: ReturnType<typeof progressLine>;
  // SARIF points each result at its entry's line, found in the same chunks the reader reads.
  const lines = args.format === 'sarif' ? createEntryLineScanner() : undefined;
  // Each exchange is analysed as its entry is read, and dropped: the file is never held whole.
  const har = await readHarFile(path, (exchange) => analysis!.feed(exchange), {
    stdin: io.stdin ?? processStdin,
    ...(lines && { onBytes: (chunk: Uint8Array) => lines.push(chunk) }),
    onSize: (size) => (analysis = analyse(options, size)),
    backlog: () => analysis!.backlog(),
    onProgress: (size) => (line = io.progress && progressLine(path, size, io.progress, args.progress, io.env ?? {}))?.update,
  });
  line?.end();
  if (!har.ok) {
    analysis?.cancel();
    return { path, error: har.reason };
  }
  if (har.skippedEntries > 0 || har.problems.length > 0) {
    io.stderr(`mcp-stream-lens: ${path}: ${har.skippedEntries} entries skipped; ${har.problems.join('; ')}`);
  }
  const { report, ids } = await analysis!.finish();
  return { path, report, ids, skippedEntries: har.skippedEntries, problems: har.problems, entryLines: lines?.lines };
}

function render(format: Format, results: readonly FileResult[], io: Io): string {
  switch (format) {
    case 'json':
      return formatJson(results, packageVersion());
    case 'junit':
      return formatJunit(results);
    case 'sarif':
      return formatSarif(results, packageVersion());
    case 'github':
      return formatGithub(results);
    case 'text': {
      const paint = io.color ? ansi : plain;
      const texts = results.filter(isChecked).map((result) => formatText(result, paint));
      if (results.length > 1) texts.push(formatTotals(totals(results), paint));
      return texts.join('\n\n');
    }
  }
}
