import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { Lifecycle } from './lifecycle.js';

/** What every Chromium the project starts needs: no sandbox (root, containers), no GPU, no noise. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export interface ChromiumOptions {
  executablePath: string;
  /** The unpacked extension (dist/chrome). */
  extensionDir: string;
  headless: boolean;
  /** The X display for a headed browser. */
  display?: string;
}

/**
 * Launches Chromium with the extension (`--load-extension`) in a fresh temporary profile that is
 * removed at exit. Headed, DevTools opens by itself for every tab. Signals are the lifecycle's
 * business, not puppeteer's, so that shutdown happens in one place and in order.
 */
export async function launchChromium(options: ChromiumOptions, lifecycle: Lifecycle): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mcp-stream-lens-demo-'));
  lifecycle.defer(() => rm(userDataDir, { recursive: true, force: true }));
  const browser = await puppeteer.launch({
    executablePath: options.executablePath,
    headless: options.headless,
    userDataDir,
    pipe: true,
    // Keep extensions enabled; the flag below loads ours.
    enableExtensions: true,
    defaultViewport: null,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // No "controlled by automated software" bar in a window a person uses.
    ignoreDefaultArgs: options.headless ? [] : ['--enable-automation'],
    args: [
      ...CHROMIUM_FLAGS,
      `--load-extension=${options.extensionDir}`,
      '--window-size=1500,950',
      ...(options.headless ? [] : ['--auto-open-devtools-for-tabs']),
    ],
    env: { ...process.env, ...(options.display !== undefined && { DISPLAY: options.display }) },
  });
  const child = browser.process();
  if (child) lifecycle.adopt(child);
  lifecycle.defer(() => (browser.connected ? browser.close() : undefined));
  return browser;
}
