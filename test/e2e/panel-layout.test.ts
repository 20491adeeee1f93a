import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { buildExtension, ROOT } from './support/extension-build';
import { inside, readLayout } from './support/layout-boxes';
import { startShell } from './support/shell-server';

// The panel at every dock a user gives it, in real Chromium, in both themes: 1280×800, 800×600,
// and docked at the bottom (1280×340). Boxes are read with getBoundingClientRect: the timeline
// lies wholly inside the viewport, no text box overlaps another (the canvas's own text included),
// and a finding's click shows its detail in view. Screenshots go to test-results/panel-layout/.
const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '800x600', width: 800, height: 600 },
  { name: 'bottom-1280x340', width: 1280, height: 340 },
] as const;
const THEMES = ['light', 'dark'] as const;
/** One session with an error, two with a refusal and a re-issue, several findings of one code, a warning. */
const FIXTURES = ['sdk-lost-buffer', 'sdk-rejected', 'sdk-duplicate', 'sdk-empty'] as const;
/** The verdict each fixture's resume shows once its capture is drawn. */
const VERDICT: Record<(typeof FIXTURES)[number], string> = { 'sdk-lost-buffer': 'gap', 'sdk-rejected': 'rejected', 'sdk-duplicate': 'duplicate', 'sdk-empty': 'empty' };
const OUT = resolve(ROOT, 'test-results/panel-layout');

/**
 * Waits until the fixture's capture is drawn: every part of the workbench rendered (it renders
 * them over a few frames), its resume marker there, and the canvas painted.
 */
async function drawn(target: Page | Frame, fixture: (typeof FIXTURES)[number]): Promise<void> {
  await target.waitForSelector('.workbench:not([aria-busy])', { timeout: 30_000 });
  await target.waitForSelector(`[data-testid="resume-marker"][data-verdict="${VERDICT[fixture]}"]`, { timeout: 30_000 });
  await target.waitForSelector('[data-testid="timeline"] canvas[data-painted]', { timeout: 30_000 });
}

/** Checks the layout as shown, then after a click on the first finding; `where` names the case. */
async function checkLayout(target: Page | Frame, where: string): Promise<void> {
  const before = await readLayout(target);
  expect(before.texts, where).toBeGreaterThan(20);
  expect(before.timeline, where).not.toBeNull();
  expect(inside(before.timeline!, before.viewport), `${where}: the timeline ${JSON.stringify(before.timeline)} in ${JSON.stringify(before.viewport)}`).toBe(true);
  expect(before.overlaps, where).toEqual([]);
  await target.click('[data-testid="finding"]');
  await target.waitForSelector('[data-testid="event-detail"], [data-testid="stream-detail"]', { visible: true });
  const after = await readLayout(target);
  expect(after.detail, where).not.toBeNull();
  // Its heading at least is in view, without scrolling the page.
  expect(after.detail!.top >= 0 && after.detail!.top + 40 <= after.viewport.height, `${where}: the detail at ${JSON.stringify(after.detail)}`).toBe(true);
  expect(inside(after.timeline!, after.viewport), where).toBe(true);
  expect(after.overlaps, `${where}, a finding selected`).toEqual([]);
}

describe('Chromium: the inline shell fits every dock, in both themes', () => {
  let shell: Awaited<ReturnType<typeof startShell>>;
  beforeAll(async () => {
    shell = await startShell();
    mkdirSync(OUT, { recursive: true });
  });
  afterAll(() => shell?.close());

  for (const size of SIZES) {
    it(`${size.name}: the timeline in view, no text over text, the detail in view after a click`, async () => {
      for (const theme of THEMES) {
        const page = await shell.browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(String(error)));
        await page.setViewport({ width: size.width, height: size.height });
        for (const fixture of FIXTURES) {
          await page.goto(`${shell.origin}/shell/index.html?har=/fixtures/${fixture}.har&theme=${theme}`);
          await drawn(page, fixture);
          if (fixture === 'sdk-lost-buffer') await page.screenshot({ path: resolve(OUT, `shell-${size.name}-${theme}.png`) });
          await checkLayout(page, `shell ${fixture} ${size.name} ${theme}`);
        }
        // No white strip above a dark panel: the page behind it is the panel's own colour.
        const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
        expect(background).toBe(theme === 'dark' ? 'rgb(32, 33, 36)' : 'rgba(0, 0, 0, 0)');
        expect(errors).toEqual([]);
        await page.close();
      }
    });
  }
});

describe('Chromium: the extension panel in DevTools fits every dock, in both themes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await buildExtension('chrome');
    mkdirSync(OUT, { recursive: true });
  });

  for (const theme of THEMES) {
    it(`${theme}: every size, the timeline in view and no text over text`, async () => {
      // DevTools follows the OS theme unless told otherwise, and the panel follows DevTools.
      const chromium = await launchChromium(dir, { args: theme === 'dark' ? ['--force-dark-mode'] : [] });
      try {
        const page = await chromium.browser.newPage();
        const { devtools, panel } = await openPanel(page);
        await devtools.evaluate(`(async () => { const UI = await import('./ui/legacy/legacy.js'); UI.DockController.DockController.instance().setDockSide('undocked'); })()`);
        expect(await panel.$eval('main', (el) => (el as HTMLElement).dataset.theme)).toBe(theme);
        for (const size of SIZES) {
          // The panel is DevTools' window less its tab bar: size the window so the panel gets `size`.
          await devtools.setViewport({ width: size.width, height: size.height + 40 });
          const bar = (await devtools.evaluate('innerHeight')) as number - ((await panel.evaluate('innerHeight')) as number);
          await devtools.setViewport({ width: size.width, height: size.height + bar });
          await panel.waitForFunction(`innerWidth === ${size.width} && innerHeight === ${size.height}`, { timeout: 10_000 });
          for (const fixture of ['sdk-lost-buffer', 'sdk-rejected'] as const) {
            const input = (await panel.$('[data-testid="import-har-input"]')) as ElementHandle<HTMLInputElement>;
            await input.uploadFile(resolve(ROOT, `test/fixtures/har/${fixture}.har`));
            await panel.waitForFunction(`document.querySelector('[data-testid="source"]')?.selectedOptions[0]?.textContent === '${fixture}.har'`, { timeout: 30_000 });
            await drawn(panel, fixture);
            if (fixture === 'sdk-lost-buffer') await devtools.screenshot({ path: resolve(OUT, `extension-${size.name}-${theme}.png`) });
            await checkLayout(panel, `extension ${fixture} ${size.name} ${theme}`);
            await panel.click('[data-testid="detail-close"]').catch(() => undefined);
          }
        }
      } finally {
        await chromium.close();
      }
    });
  }
});
