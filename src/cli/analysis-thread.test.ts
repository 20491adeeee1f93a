import { readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseInThread } from './analysis-thread';
import { main, type Io } from './main';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/har');
const dir = mkdtempSync(join(tmpdir(), 'msl-thread-'));
// The worker runs the CLI's entry, run.ts, as the bundle does; it is TypeScript here, so the
// worker first registers tsx's loader in its own thread.
const ENTRY = pathToFileURL(join(dir, 'entry.mjs'));
writeFileSync(ENTRY, `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};\nregister();\nawait import(${JSON.stringify(new URL('./run.ts', import.meta.url).href)});\n`);
// Every file goes to the worker, however small.
const inThread = analyseInThread(ENTRY, undefined, 0);

async function run(io: Partial<Io>, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { ...io, stdout: (t) => (out += `${t}\n`), stderr: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

describe('the analysis in a worker thread', () => {
  const hars = readdirSync(FIXTURES).filter((name) => name.endsWith('.har'));

  it('gives the output of the analysis in this thread, for every fixture', async () => {
    expect(hars.length).toBeGreaterThan(5);
    // Text names the events findings point at by their ids, which the worker sends back; SARIF's
    // entry lines are read here, beside the worker, so one file shows they still come.
    for (const name of hars) {
      for (const format of name === hars[0] ? ['json', 'text', 'sarif'] : ['json', 'text']) {
        const argv = ['check', '--format', format, join(FIXTURES, name)];
        const here = await run({}, ...argv);
        const there = await run({ analyse: inThread }, ...argv);
        expect(there, `${name} as ${format}`).toEqual(here);
      }
    }
  }, 120_000);

  it('reports a file that is not HAR as unreadable, as this thread does', async () => {
    const path = join(dir, 'broken.har');
    writeFileSync(path, '{"log":{"entries":[{"request":');
    const there = await run({ analyse: inThread }, 'check', path);
    expect(there.code).toBe(2);
    expect(there).toEqual(await run({}, 'check', path));
  });
});
