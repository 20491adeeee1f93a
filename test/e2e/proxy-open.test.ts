import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/cli/proxy-view.js';
import { startCli } from './support/cli-process.js';

// `--open` as a user has it: the built CLI runs $BROWSER, here a small script that writes the URL
// it was given into a FIFO the test reads (the read returns once the script has written it).
// PATH holds no system opener (xdg-open would itself run $BROWSER): only the proxy's own reading
// of $BROWSER can open it.

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stream-lens-proxy-open-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('mcp-stream-lens proxy --open', () => {
  it('runs $BROWSER with the live view URL and its token, and that URL serves the view', async () => {
    const fifo = join(dir, 'opened');
    execFileSync('mkfifo', [fifo]);
    const browser = join(dir, 'browser.sh');
    await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$*" > "${fifo}"\n`);
    await chmod(browser, 0o755);
    const cli = startCli(['proxy', '--target', 'http://127.0.0.1:9/mcp', '--listen', '127.0.0.1:0', '--view', '127.0.0.1:0', '--open'], { ...process.env, BROWSER: browser, PATH: dir });
    try {
      const opened = (await readFile(fifo, 'utf8')).trim();
      const [, printed] = (await cli.waitFor(/live view at (\S+)/, 'stderr')) as [string, string];
      expect(opened).toBe(printed);
      expect(opened).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
      const page = await fetch(opened);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toMatch(/<script[^>]+src=/);
      // Without the token the same address refuses.
      expect((await fetch(new URL('/', opened))).status).toBe(403);
    } finally {
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
    }
    expect(cli.stderr()).not.toContain('could not open a browser');
  });

  it('reads $BROWSER as other tools do: its first entry, %s for the URL, else the URL last; then the system opener', () => {
    const url = 'http://127.0.0.1:1/?token=t';
    expect(browserCommand(url, { BROWSER: 'firefox --new-tab:chromium' }, 'linux')).toEqual(['firefox', ['--new-tab', url]]);
    expect(browserCommand(url, { BROWSER: 'my-open --url=%s --raise' }, 'linux')).toEqual(['my-open', [`--url=${url}`, '--raise']]);
    expect(browserCommand(url, { BROWSER: '  ' }, 'linux')).toEqual(['xdg-open', [url]]);
    expect(browserCommand(url, {}, 'darwin')).toEqual(['open', [url]]);
  });
});
