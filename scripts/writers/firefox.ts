import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { isMcpPath, type RecordingSite } from './site.js';

/** Debian's Firefox ESR, unless FIREFOX_PATH names another. */
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** How long Firefox may take to write its HAR after the page has loaded. */
export const EXPORT_DEADLINE_MS = 30_000;

/**
 * Firefox ESR's own HAR writer: the network monitor's auto-export
 * (`devtools.netmonitor.har.enableAutoExportToFile`), which needs the toolbox open (`-devtools`)
 * and writes the page's requests to `defaultLogDir` once the page has loaded and its requests
 * have ended. Headless Firefox ESR opens the toolbox and exports too (measured with 153), so no
 * X display is needed; `DISPLAY`, when set, runs it headed there instead.
 */
export async function recordWithFirefox(site: RecordingSite, file: string): Promise<void> {
  const display = process.env.DISPLAY;
  const profile = await mkdtemp(join(tmpdir(), 'msl-firefox-har-'));
  const logDir = join(profile, 'har');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: display === undefined,
    userDataDir: profile,
    args: ['-devtools'],
    ...(display !== undefined && { env: { ...process.env, DISPLAY: display } }),
    extraPrefsFirefox: {
      'devtools.netmonitor.har.enableAutoExportToFile': true,
      'devtools.netmonitor.har.defaultLogDir': logDir,
      'devtools.netmonitor.har.defaultFileName': 'export',
      'devtools.netmonitor.har.includeResponseBodies': true,
      'devtools.toolbox.selectedTool': 'netmonitor',
    },
  });
  try {
    const [page] = await browser.pages();
    const written = harWritten(logDir);
    await page!.goto(site.pageUrl, { waitUntil: 'load', timeout: 60_000 });
    const har = JSON.parse(await readFile(await written, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    har.log.entries = har.log.entries.filter((e) => isMcpPath(e.request.url));
    await writeFile(file, `${JSON.stringify(har, null, 2)}\n`);
  } finally {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/** Resolves with the path of the first `.har` file that appears in `dir` (created if needed). */
async function harWritten(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`Firefox wrote no HAR into ${dir} within ${EXPORT_DEADLINE_MS / 1000} s`));
    }, EXPORT_DEADLINE_MS);
    const check = async () => {
      const name = (await readdir(dir)).find((n) => n.endsWith('.har'));
      if (!name) return;
      // The exporter writes the file in one go; wait until it parses as a whole.
      const text = await readFile(join(dir, name), 'utf8');
      try {
        JSON.parse(text);
      } catch {
        return;
      }
      clearTimeout(timer);
      watcher.close();
      resolve(join(dir, name));
    };
    const watcher = watch(dir, () => void check());
  });
}
