import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStale } from '../../demo/launch/freshness';
import { ROOT } from './support/extension-build';

// The package as users install it: `npm pack`, then `npm install --offline` of the tarball into
// an empty folder (its one dependency, eventsource-parser, packed from our node_modules beside
// it: an offline install cannot ask the registry for it). Then the bin through npx, the library
// through plain node, and its types through tsc on a two-line user file. guard-package.test.ts
// checks the guard's entry the same way through the package's own name.

const run = promisify(execFile);
const FIXTURES = join(ROOT, 'test/fixtures/har');
let dir = '';
let files: string[] = [];

const BUILDS: [string, string, string[]][] = [
  ['build:cli', 'dist/cli/run.js', ['src/cli', 'src/core', 'vite.cli.config.ts']],
  ['build:guard', 'dist/guard/index.d.ts', ['src/guard', 'src/core', 'vite.guard.config.ts']],
  ['build:lib', 'dist/lib/playwright.d.ts', ['src/lib', 'src/cli', 'src/core', 'vite.lib.config.ts']],
];

beforeAll(async () => {
  for (const [script, output, sources] of BUILDS) {
    if (await isStale(join(ROOT, output), sources.map((s) => join(ROOT, s)))) await run('npm', ['run', script], { cwd: ROOT, timeout: 150_000 });
  }
  dir = await mkdtemp(join(tmpdir(), 'msl-install-'));
  // The builds are fresh: pack what they made, without running prepare again.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, timeout: 60_000 });
  files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  await run('npm', ['pack', join(ROOT, 'node_modules/eventsource-parser'), '--pack-destination', dir], { cwd: dir, timeout: 60_000 });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const tarballs = (await readdir(dir)).filter((name) => name.endsWith('.tgz')).map((name) => `./${name}`);
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: dir, timeout: 120_000 });
}, 500_000);
afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

describe('the npm package, installed from its tarball', () => {
  it('ships the bins, the builds, their types, the schema and the contract, and no stray files', () => {
    for (const path of ['bin/mcp-stream-lens.js', 'dist/cli/run.js', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lib/playwright.js', 'dist/lib/playwright.d.ts', 'dist/guard/index.js', 'dist/guard/index.d.ts', 'schema/report.schema.json', 'docs/report.md']) {
      expect(files).toContain(path);
    }
    expect(files.filter((f) => f.endsWith('.png') || f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
  });

  it('npx mcp-stream-lens check runs the installed bin, with its exit codes', async () => {
    const npx = (...args: string[]) => run('npx', ['--offline', '--no', '--', 'mcp-stream-lens', ...args], { cwd: dir, timeout: 60_000 }).then(({ stdout }) => ({ code: 0, stdout }), (e: { code: number; stdout: string }) => e);
    expect(await npx('check', join(FIXTURES, 'sdk-genuine.har'))).toMatchObject({ code: 0 });
    expect(await npx('check', join(FIXTURES, 'sdk-lost-buffer.har'))).toMatchObject({ code: 1, stdout: expect.stringContaining('GAP') });
    const { stdout } = await npx('--version');
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('node imports the library, the Playwright helper and the schema by the package name', async () => {
    const script = `import { analyzeHar, createAnalyzer, FINDINGS } from 'mcp-stream-lens';
import { expectHarFindings } from 'mcp-stream-lens/playwright';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const schema = createRequire(import.meta.url)('mcp-stream-lens/report.schema.json');
const { report } = analyzeHar(readFileSync(${JSON.stringify(join(FIXTURES, 'sdk-lost-buffer.har'))}, 'utf8'));
const failed = await expectHarFindings(${JSON.stringify(join(FIXTURES, 'sdk-lost-buffer.har'))}).then(() => 'passed', (e) => e.name);
console.log(JSON.stringify({ verdict: report.sessions[0].resumes[0].verdict, title: FINDINGS['resume-seq-gap'].title, analyzer: typeof createAnalyzer().report, failed, schema: schema.title }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ verdict: 'gap', title: 'Application sequence jumped across a resume', analyzer: 'function', failed: 'HarFindingsError', schema: 'mcp-stream-lens check --format json' });
  });

  it('the main entry imports no Node module, so bundlers for the browser take it as it is', async () => {
    const lib = join(dir, 'node_modules/mcp-stream-lens/dist/lib');
    const seen = new Set<string>();
    const imports: string[] = [];
    const walk = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = await readFile(join(lib, file), 'utf8');
      for (const [, spec] of code.matchAll(/^(?:import|export) [^;]*?from "([^"]+)"/gm)) {
        if (spec!.startsWith('./')) await walk(spec!.slice(2));
        else imports.push(spec!);
      }
    };
    await walk('index.js');
    expect(seen.size).toBeGreaterThan(1);
    expect(imports).toEqual(['eventsource-parser']);
  });

  it('tsc types a two-line user file against the installed declarations', async () => {
    const user = join(dir, 'user.ts');
    await writeFile(user, `import { analyzeHar, FINDINGS, type Report } from 'mcp-stream-lens';
export const errors: number = (analyzeHar('{}').report satisfies Report).summary.errors + FINDINGS['result-lost'].title.length;
`);
    const bad = join(dir, 'bad.ts');
    await writeFile(bad, `import { expectHarFindings } from 'mcp-stream-lens/playwright';
export const p: Promise<unknown> = expectHarFindings('x.har', { failOn: 'fatal' });
`);
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    const check = (file: string) => run(process.execPath, [tsc, ...flags, file], { cwd: dir }).then(() => 'ok', (failed: { stdout: string }) => failed.stdout);
    expect(await check(user)).toBe('ok');
    // The options are typed, not `any`: a wrong severity is refused.
    expect(await check(bad)).toMatch(/bad\.ts\(2,\d+\): error TS2322: Type '"fatal"' is not assignable/);
  }, 60_000);
});
