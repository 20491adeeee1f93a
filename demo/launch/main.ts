import { parseDemoArgs, USAGE, type DemoOptions } from './args.js';
import { DemoError, oneLine } from './demo-error.js';
import { headlessDemo } from './headless-demo.js';
import { interactiveDemo } from './interactive-demo.js';
import { createLifecycle } from './lifecycle.js';

// `npm run demo -- ...` (tsx demo/launch/main.ts). Every path out of here goes through
// lifecycle.exit, which closes the browser, the servers and Xvfb before the process ends.

const log = (line: string) => void process.stderr.write(`${line}\n`);
const lifecycle = createLifecycle(log);

async function main(): Promise<number> {
  const options = parseDemoArgs(process.argv.slice(2));
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const work = options.headless ? headlessDemo(options as DemoOptions & { out: string }, lifecycle, log) : interactiveDemo(options, lifecycle, log);
  return Promise.race([
    work,
    lifecycle.interrupted.then((signal) => {
      log(`demo: ${signal}; stopping`);
      return 130;
    }),
  ]);
}

main().then(
  (code) => lifecycle.exit(code),
  (error: unknown) => {
    log(error instanceof DemoError ? `demo: ${error.message}` : `demo: failed: ${oneLine(error)}`);
    return lifecycle.exit(1);
  },
);
