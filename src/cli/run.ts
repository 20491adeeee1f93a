import { wantsColor } from './color';
import { main } from './main';
import { processStdin } from './stdin';

// The CLI's entry: wires main() to the process. Kept apart so tests call main() directly.
main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  color: wantsColor(process.env, process.stdout.isTTY === true),
  stdin: processStdin,
  progress: process.stderr,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-stream-lens: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
