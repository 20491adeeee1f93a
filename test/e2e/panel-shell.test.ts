import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/extension-build';
import { ERROR_RED, pixelsAt } from './support/canvas-pixels';
import { waitForImportSettled } from './support/panel-queries';
import { startShell } from './support/shell-server';

// The inline shell (the real panel on a plain page) in real Chromium, fed the SDK recordings.
// Assertions are about what a user sees: the red marker, the finding, the detail after a click.
describe('Chromium: the panel in the inline shell', () => {
  let shell: Awaited<ReturnType<typeof startShell>>;
  let scratch: string;

  beforeAll(async () => {
    shell = await startShell();
    scratch = mkdtempSync(join(tmpdir(), 'msl-shell-'));
    mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
  });
  afterAll(async () => {
    await shell?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  async function open(query: string): Promise<Page> {
    const page = await shell.browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${shell.origin}/shell/index.html?${query}`);
    (page as Page & { errors?: string[] }).errors = errors;
    return page;
  }

  /** Waits until the canvas has painted at least once after the last state change that matters. */
  const painted = (page: Page) => page.waitForSelector('[data-testid="timeline"] canvas[data-painted]', { timeout: 30_000 });

  it('lost buffer: a red gap marker, the resume-seq-gap finding, and its event in the detail after a click', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const page = await open(`har=/fixtures/sdk-lost-buffer.har&theme=${theme}`);
      const marker = (await page.waitForSelector('[data-testid="resume-marker"]', { timeout: 30_000 }))!;
      expect(await marker.evaluate((el) => (el as HTMLElement).dataset.verdict)).toBe('gap');
      // Status, verdict and the boundary's arithmetic: app_seq 5, then 11.
      expect(await marker.evaluate((el) => el.textContent)).toBe('200 gap · 5 → expected 6 · got 11');
      expect(await marker.evaluate((el) => { const d = (el as HTMLElement).dataset; return [d.lastSeen, d.expected, d.got]; })).toEqual(['5', '6', '11']);
      // The label is red, and so is the boundary line drawn on the canvas under it.
      const [r, g, b] = await marker.evaluate((el) => getComputedStyle(el).backgroundColor.match(/\d+/g)!.map(Number));
      expect(r).toBeGreaterThan(190);
      expect(g! + b!).toBeLessThan(r! * 1.4);
      await painted(page);
      expect(await pixelsAt(marker, ERROR_RED[theme])).toBeGreaterThan(50);
      await waitForImportSettled(page);

      const badge = await page.$eval('[data-testid="session-row"] [data-testid="error-badge"]', (el) => el.textContent);
      expect(Number(badge)).toBeGreaterThanOrEqual(1);
      const finding = (await page.waitForSelector('[data-testid="finding"][data-code="resume-seq-gap"]'))!;
      expect(await finding.evaluate((el) => (el as HTMLElement).dataset.severity)).toBe('error');
      expect(await finding.evaluate((el) => el.textContent)).toContain('re-issue the original request as a new idempotent call');
      expect(await finding.evaluate((el) => el.textContent)).toContain('affinity on Mcp-Session-Id');
      expect(await page.$$eval('[data-testid="stream-label"]', (els) => els.map((e) => e.textContent))).toEqual([
        'initialize · id 0', 'notifications/initialized', 'standalone GET', 'tools/call long_task · id 1', 'resume of #3', 'DELETE session',
      ]);

      await finding.click();
      const detail = (await page.waitForSelector('[data-testid="event-detail"]'))!;
      const text = await detail.evaluate((el) => el.textContent ?? '');
      expect(text).toContain('"app_seq": 11');
      expect(text).toContain('notifications/progress');
      expect(text).toMatch(/last-event-id/i);
      expect(await detail.evaluate((el) => el.querySelector('.role')!.textContent)).toBe('progress');
      await page.screenshot({ path: resolve(ROOT, `test-results/panel-shell-${theme}.png`) });
      expect((page as Page & { errors?: string[] }).errors).toEqual([]);
      await page.close();
    }
  });

  it('genuine, imported through the file picker: a green marker and no error; a broken file keeps it', async () => {
    const page = await open('theme=light');
    await page.waitForSelector('[data-testid="empty-state"]');
    const input = (await page.$('[data-testid="import-har-input"]')) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(resolve(ROOT, 'test/fixtures/har/sdk-genuine.har'));
    const marker = (await page.waitForSelector('[data-testid="resume-marker"]', { timeout: 30_000 }))!;
    expect(await marker.evaluate((el) => (el as HTMLElement).dataset.verdict)).toBe('genuine');
    await waitForImportSettled(page);
    expect(await page.$$eval('[data-testid="session-row"]', (els) => els.length)).toBe(1);
    expect(await page.$$eval('[data-testid="finding"][data-severity="error"]', (els) => els.length)).toBe(0);
    expect(await page.$('[data-testid="error-badge"]')).toBeNull();

    // The keyboard reaches the events: focus the timeline, step with the arrow keys.
    await page.focus('[data-testid="timeline"] canvas');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const detail = (await page.waitForSelector('[data-testid="event-detail"][data-event="1"]'))!;
    expect(await detail.evaluate((el) => el.textContent)).toContain('Raw SSE');

    const broken = join(scratch, 'broken.har');
    writeFileSync(broken, '{"log": {"entries": [');
    await input.uploadFile(broken);
    const notice = (await page.waitForSelector('[data-testid="notice"][data-kind="error"]'))!;
    expect(await notice.evaluate((el) => el.textContent)).toContain('Could not import broken.har: not valid JSON');
    expect(await page.$eval('[data-testid="resume-marker"]', (el) => (el as HTMLElement).dataset.verdict)).toBe('genuine');
    expect(await page.$$eval('[data-testid="session-row"]', (els) => els.length)).toBe(1);
    await page.close();
  });
});
