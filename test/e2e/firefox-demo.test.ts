import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePage } from '../../demo/launch/builds';
import { startSite, type Site } from '../../demo/launch/site';
import { ROOT, buildExtension } from './support/extension-build';
import { launchFirefox } from './support/firefox';

// The demo's genuine and lost-buffer scenarios in real Firefox ESR: the real SDK browser client
// on the demo page, the load balancer draining the tool call, and the extension's panel (read in
// its viewer tab, as BiDi cannot reach a DevTools panel) showing the verdict and the finding.
describe('Firefox ESR: the demo scenarios through the real extension', () => {
  let site: Site;
  let firefox: Awaited<ReturnType<typeof launchFirefox>>;

  beforeAll(async () => {
    await ensurePage(() => undefined);
    const [dir, started] = await Promise.all([buildExtension('firefox'), startSite({ port: 0, scenarios: ['genuine', 'lost-buffer'] })]);
    site = started;
    firefox = await launchFirefox(dir);
  });
  afterAll(async () => {
    await firefox?.close();
    await site?.close();
  });

  /** Runs one scenario on the demo page and waits for what the client believed. */
  async function runScenario(scenario: string): Promise<string> {
    const { page } = firefox;
    await page.goto(`${site.origin}/?scenario=${scenario}`);
    await page.click(`[data-testid="run-${scenario}"]`);
    const result = await page.waitForSelector('[data-testid="client-result"]:is([data-state="ok"], [data-state="error"])', { timeout: 60_000 });
    return (await result!.evaluate((el) => `${(el as HTMLElement).dataset.state}: ${el.textContent}`)) ?? '';
  }

  /** Opens the viewer on the demo tab; the panel opens on the newest session with an error, else the newest. */
  async function openPanel(): Promise<Page> {
    const viewer = await firefox.openViewer();
    await viewer.waitForSelector('[data-testid="tab-choice"]', { timeout: 30_000 });
    await viewer.click('[data-testid="tab-choice"]');
    return viewer;
  }

  // With every part of the workbench rendered (it renders them over a few frames), so an empty
  // list of findings is the panel's answer, not a list still to come.
  const verdictShown = async (viewer: Page, verdict: string) => {
    await viewer.waitForSelector('.workbench:not([aria-busy])', { timeout: 30_000 });
    return viewer.waitForSelector(`[data-testid="resume-marker"][data-verdict="${verdict}"]`, { timeout: 30_000 });
  };
  const errorCodes = (viewer: Page) =>
    viewer.$$eval('[data-testid="finding"][data-severity="error"]', (els) => els.map((e) => (e as HTMLElement).dataset.code));

  it('genuine: the resume is shown as genuine and no error is found', async () => {
    expect(await runScenario('genuine')).toMatch(/^ok: /);
    const viewer = await openPanel();
    await verdictShown(viewer, 'genuine');
    expect(await errorCodes(viewer)).toEqual([]);
    await viewer.close();
  });

  it('lost-buffer: the client believed a fake success; the panel shows the gap and resume-seq-gap', async () => {
    expect(await runScenario('lost-buffer')).toContain('long_task finished');
    const viewer = await openPanel();
    await verdictShown(viewer, 'gap');
    expect(await errorCodes(viewer)).toContain('resume-seq-gap');
    mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
    await viewer.screenshot({ path: resolve(ROOT, 'test-results/firefox-demo-lost-buffer.png') });
    await viewer.close();
  });
});
