import { isMainThread, workerData } from 'node:worker_threads';
import { analyseInThread, ANALYSIS_WORKER, serveAnalysis } from './analysis-thread';
import { wantsColor } from './color';
import { main } from './main';
import { processStdin } from './stdin';

// The CLI's entry: wires main() to the process. Kept apart so tests call main() directly. The
// same file, started as a worker, analyses a large file beside the thread that reads it.
if (!isMainThread && workerData === ANALYSIS_WORKER) serveAnalysis();
else {
  main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
    color: wantsColor(process.env, process.stdout.isTTY === true),
    stdin: processStdin,
    progress: process.stderr,
    analyse: analyseInThread(new URL(import.meta.url)),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`mcp-stream-lens: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
