import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS } from '../../demo/launch/chromium';
import { isStale } from '../../demo/launch/freshness';
import { CHROMIUM } from '../../scripts/writers/playwright';
import { startRecordingSite, type RecordingSite } from '../../scripts/writers/site';
import { ROOT } from './support/extension-build';

// mcp-stream-lens/playwright as a user's test meets it: a node:test file (consumers/) that
// records the demo's lost-buffer scenario with Playwright's recordHar on Debian's Chromium and
// asks the helper about the HAR. The resume is synthesized, so that test must fail, and its
// failure must be the helper's diff of findings. Playwright drops the body of the reset stream,
// so the diff says the verdict is open rather than naming the gap. The package resolves itself by name, from
// the build `npm run build:lib` makes.

const run = promisify(execFile);
const OUT = join(ROOT, 'test-results', 'playwright-helper');
let site: RecordingSite;

beforeAll(async () => {
  if (await isStale(join(ROOT, 'dist/lib/playwright.d.ts'), [join(ROOT, 'src/lib'), join(ROOT, 'src/core'), join(ROOT, 'src/cli'), join(ROOT, 'vite.lib.config.ts')])) {
    await run('npm', ['run', 'build:lib'], { cwd: ROOT, timeout: 150_000 });
  }
  await mkdir(OUT, { recursive: true });
  site = await startRecordingSite('sdk', 'lost-buffer');
}, 160_000);
afterAll(async () => {
  await site?.close();
  await rm(OUT, { recursive: true, force: true });
});

describe('mcp-stream-lens/playwright in a user\'s test', () => {
  it('records the lost-buffer run with recordHar, and fails the test with the diff of findings', async () => {
    const har = join(OUT, 'lost-buffer.har');
    const env = { ...process.env, CHROME_PATH: CHROMIUM, CHROME_FLAGS: JSON.stringify(CHROMIUM_FLAGS), HAR_PATH: har, SITE_URL: site.pageUrl };
    const failed = await run(process.execPath, ['--test', '--test-reporter=spec', join(ROOT, 'test/e2e/consumers/playwright-user.test.mjs')], { cwd: ROOT, env, timeout: 90_000 }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed, 'the user\'s test passed on a synthesized resume').toBeDefined();
    expect(failed!.code).toBe(1);
    // The test failed on the helper's message, not on a browser or a timeout.
    expect(failed!.stdout).toContain('HarFindingsError');
    expect(failed!.stdout).toContain('the findings (warning and worse) differ from what the test expects');
    // Playwright keeps no body of the reset stream (test/fixtures/har/writers/README.md), so the
    // helper cannot prove the gap from this HAR: it fails the test because the verdict is open.
    expect(failed!.stdout).toMatch(/\+ warning body-not-captured {2}session \S+ #\d+: .*leaves open the verdict on resume #\d+/);
    expect(failed!.stdout).toMatch(/evidence: HAR entry \d+/);
    expect(failed!.stdout).toMatch(/resume #\d+ of an unknown stream: unverifiable/);
    expect(await site.belief()).toMatch(/^result /);
  }, 100_000);
});
