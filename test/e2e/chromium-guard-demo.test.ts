import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePage } from '../../demo/launch/builds';
import { startSite, type Site } from '../../demo/launch/site';
import { launchChromium, openPanel } from './support/chromium';
import { ROOT, buildExtension } from './support/extension-build';
import { waitForPanel } from './support/panel-queries';

// The demo page's "guarded client" switch in real Chromium: the SDK's browser build with
// `mcp-stream-lens/guard` in front of its transport, the demo's load balancer losing the buffer,
// and the extension's panel, open on the page, capturing what went over the wire.
describe('Chromium: the demo page with the guarded client', () => {
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    await ensurePage(() => undefined);
    const [dir, started] = await Promise.all([buildExtension('chrome'), startSite({ port: 0, scenarios: ['lost-buffer', 'genuine'] })]);
    site = started;
    chromium = await launchChromium(dir);
  });
  afterAll(async () => {
    await chromium?.close();
    await site?.close();
  });

  /** Clicks the scenario's button and waits for what the client believed. */
  async function run(page: Page, scenario: string): Promise<{ state: string; text: string; guard: string }> {
    await page.click(`[data-testid="run-${scenario}"]`);
    const result = await page.waitForSelector('[data-testid="client-result"]:is([data-state="ok"], [data-state="error"])', { timeout: 60_000 });
    const guard = await page.$eval('[data-testid="guard-notes"]', (el) => el.textContent ?? '');
    return { ...(await result!.evaluate((el) => ({ state: (el as HTMLElement).dataset.state ?? '', text: el.textContent ?? '' }))), guard };
  }

  it('lost-buffer, switch on: the true result of the re-issued call, and the panel shows the bad resume and the re-issue', async () => {
    const page = await chromium.browser.newPage();
    const { devtools, panel } = await openPanel(page);
    await page.goto(`${site.origin}/?scenario=lost-buffer`);
    await page.click('[data-testid="guard-switch"]');
    expect(page.url()).toContain('guard=reissue');

    const client = await run(page, 'lost-buffer');
    expect(client.state).toBe('ok');
    expect(client.text).toContain('(after the guard re-issued the call)');
    expect(client.text).toContain('long_task finished 12 steps on a');
    expect(client.text).toContain('"app_seq": 13');
    expect(client.guard).toMatch(/refused: refused the resume from Last-Event-ID .* \(resume-seq-gap\)/);
    expect(client.guard).toContain('reissued: re-issued request');

    // The panel: the refused resume (verdict gap) and, after it, the re-issued call that completed.
    const state = await waitForPanel(panel, `(s) => s.findings.some((f) => f.code === 'resume-seq-gap') && s.streams.some((x) => x.method === 'POST' && x.end === 'complete' && x.events >= 14)`);
    await panel.waitForSelector('[data-testid="resume-marker"][data-verdict="gap"]', { timeout: 30_000 });
    const resume = state.streams.findIndex((x) => x.method === 'GET' && x.lastEventId !== '');
    const reissue = state.streams.findIndex((x) => x.method === 'POST' && x.end === 'complete' && x.events >= 14);
    expect(resume).toBeGreaterThanOrEqual(0);
    expect(reissue).toBeGreaterThan(resume);
    mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
    await devtools.screenshot({ path: resolve(ROOT, 'test-results/chromium-guard-lost-buffer.png') });
    await page.close();
  });

  it('lost-buffer, policy throw: a clear ResumptionBoundaryError instead of the fabricated result', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(`${site.origin}/?scenario=lost-buffer&guard=throw`);
    expect(await page.$eval('[data-testid="guard-switch"]', (el) => (el as HTMLInputElement).checked)).toBe(true);
    const client = await run(page, 'lost-buffer');
    expect(client.state).toBe('error');
    expect(client.text).toContain('ResumptionBoundaryError');
    expect(client.text).toContain('(resume-seq-gap)');
    expect(client.text).not.toContain('long_task finished');
    await page.close();
  });

  it('genuine, switch on: the same result as without it', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(`${site.origin}/?scenario=genuine&guard=reissue`);
    const client = await run(page, 'genuine');
    expect(client.state).toBe('ok');
    expect(client.text).toContain('long_task finished 12 steps on');
    expect(client.text).not.toContain('re-issu');
    expect(client.guard).toContain('accepted: handed the resume');
    await page.close();
  });
});
