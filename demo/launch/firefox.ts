import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { Lifecycle } from './lifecycle.js';

export interface FirefoxOptions {
  executablePath: string;
  /** The unpacked extension (dist/firefox). */
  extensionDir: string;
  display: string;
}

/**
 * Launches Firefox ESR over WebDriver BiDi (no geckodriver) in a fresh temporary profile,
 * installs the extension as a temporary add-on, and opens DevTools (`-devtools`).
 */
export async function launchFirefox(options: FirefoxOptions, lifecycle: Lifecycle): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mcp-stream-lens-demo-firefox-'));
  lifecycle.defer(() => rm(userDataDir, { recursive: true, force: true }));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: options.executablePath,
    headless: false,
    userDataDir,
    defaultViewport: null,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: ['-devtools', '--width=1500', '--height=950'],
    extraPrefsFirefox: {
      // No first-run pages or update checks in a throwaway profile.
      'browser.aboutwelcome.enabled': false,
      'app.update.enabled': false,
      'devtools.toolbox.host': 'bottom',
    },
    env: { ...process.env, DISPLAY: options.display },
  });
  const child = browser.process();
  if (child) lifecycle.adopt(child);
  lifecycle.defer(() => (browser.connected ? browser.close() : undefined));
  await browser.installExtension(options.extensionDir);
  return browser;
}
