import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { buildExtension, ROOT } from './support/extension-build';
import { startShell } from './support/shell-server';

// Accessibility checked by a library: axe-core scans the inline shell and the extension panel in
// DevTools, in both themes, as a user leaves them (a capture shown, a finding's detail open, the
// settings open), and finds no serious or critical violation.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const THEMES = ['light', 'dark'] as const;

interface Violation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe on the document of `target`. Its source goes in through evaluate, which an extension
 * page's content security policy does not refuse (a script tag would be).
 */
async function scan(target: Page | Frame): Promise<Violation[]> {
  await target.evaluate(AXE);
  return (await target.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`)) as Violation[];
}

/** The states a user leaves the panel in: the capture, then a finding's detail, then the settings. */
async function scanStates(target: Page | Frame, where: string): Promise<void> {
  // The workbench renders its parts over a few frames: scanned once they are all there.
  await target.waitForSelector('.workbench:not([aria-busy])', { timeout: 30_000 });
  await target.waitForSelector('[data-testid="resume-marker"]', { timeout: 30_000 });
  await target.waitForSelector('[data-testid="timeline"] canvas[data-painted]', { timeout: 30_000 });
  expect(await scan(target), `${where}, a capture shown`).toEqual([]);
  await target.click('[data-testid="finding"]');
  await target.waitForSelector('[data-testid="event-detail"], [data-testid="stream-detail"]');
  expect(await scan(target), `${where}, a finding's detail open`).toEqual([]);
  await target.click('[data-testid="settings-toggle"]');
  await target.waitForSelector('[data-testid="settings"]');
  expect(await scan(target), `${where}, the settings open`).toEqual([]);
}

describe('axe-core: the inline shell', () => {
  let shell: Awaited<ReturnType<typeof startShell>>;
  beforeAll(async () => void (shell = await startShell()));
  afterAll(() => shell?.close());

  for (const theme of THEMES) {
    it(`${theme}: no serious or critical violation, empty or with a capture`, async () => {
      const page = await shell.browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.goto(`${shell.origin}/shell/index.html?theme=${theme}`);
      await page.waitForSelector('[data-testid="empty-state"]');
      expect(await scan(page), `shell ${theme}, empty`).toEqual([]);
      for (const fixture of ['sdk-lost-buffer', 'sdk-rejected', 'sdk-duplicate']) {
        await page.goto(`${shell.origin}/shell/index.html?har=/fixtures/${fixture}.har&theme=${theme}`);
        await scanStates(page, `shell ${fixture} ${theme}`);
      }
      await page.close();
    });
  }
});

describe('axe-core: the extension panel in DevTools', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await buildExtension('chrome');
  });

  for (const theme of THEMES) {
    it(`${theme}: no serious or critical violation`, async () => {
      const chromium = await launchChromium(dir, { args: theme === 'dark' ? ['--force-dark-mode'] : [] });
      try {
        const page = await chromium.browser.newPage();
        const { panel } = await openPanel(page);
        expect(await panel.$eval('main', (el) => (el as HTMLElement).dataset.theme)).toBe(theme);
        expect(await scan(panel), `extension ${theme}, empty`).toEqual([]);
        const input = (await panel.$('[data-testid="import-har-input"]')) as ElementHandle<HTMLInputElement>;
        await input.uploadFile(resolve(ROOT, 'test/fixtures/har/sdk-lost-buffer.har'));
        await scanStates(panel, `extension ${theme}`);
      } finally {
        await chromium.close();
      }
    });
  }
});
