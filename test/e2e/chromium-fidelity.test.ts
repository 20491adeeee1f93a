import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { buildExtension } from './support/extension-build';
import { readPanel, waitForPanel } from './support/panel-queries';
import { startWorkerSite, type WorkerSite } from './support/worker-site';

// Issue 21 (2, 3): the real SDK client in a dedicated Worker (invisible to the page tap), against
// the real SDK server behind the demo's load balancer, with "Capture workers and early requests"
// off and then on. The build is installed with `debugger` granted (what Chrome allows a test:
// a permission granted at install), so the switch's permission request resolves without a prompt.
describe('Chromium: full-fidelity capture of a Worker\'s MCP streams', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let site: WorkerSite;
  beforeAll(async () => {
    const [dir, started] = await Promise.all([buildExtension('chrome', { pregrant: true }), startWorkerSite(['genuine', 'lost-buffer'])]);
    site = started;
    chromium = await launchChromium(dir);
  });
  afterAll(async () => {
    await chromium?.close();
    await site?.close();
  });

  async function runIn(scenario: string): Promise<{ page: Page; panel: Frame; done: Promise<string> }> {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/`);
    await page.evaluate((s: string) => (window as unknown as { runWorker(s: string, n: number, d: number): void }).runWorker(s, 10, 150), scenario);
    const done = page
      .waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done') && document.getElementById('status')!.textContent, { polling: 100, timeout: 60_000 })
      .then((h) => h.jsonValue() as Promise<string>);
    return { page, panel, done };
  }

  async function setSwitch(panel: Frame, on: boolean): Promise<void> {
    await panel.click('[data-testid="settings-toggle"]');
    const box = await panel.waitForSelector('[data-testid="settings-fidelity"]');
    if ((await box!.evaluate((b) => (b as HTMLInputElement).checked)) !== on) await box!.click();
    await panel.click('[data-testid="settings-save"]');
    await panel.waitForSelector('[data-testid="settings"]', { hidden: true });
  }

  const attachedStatus = async (panel: Frame, attached: boolean) => {
    await panel.click('[data-testid="settings-toggle"]');
    const status = await panel.waitForSelector(`[data-testid="fidelity-status"][data-attached="${attached}"]`, { timeout: 30_000 });
    const text = await status!.evaluate((s) => s.textContent);
    await panel.click('[data-testid="settings-toggle"]');
    return text;
  };

  it('off: a Worker\'s streams come from the network panel, their bodies "not captured", and no false error', async () => {
    for (const scenario of ['genuine', 'lost-buffer']) {
      const { page, panel, done } = await runIn(scenario);
      expect(await done).toMatch(/^done /);
      const state = await waitForPanel(panel, `(s) => s.streams.length > 0 && s.streams.every((x) => x.end !== 'open')`);
      console.log(`[fidelity off, ${scenario}] streams ${state.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}; findings ${state.findings.map((f) => f.code).join(', ')}`);
      expect(state.streams.every((x) => x.source === 'network')).toBe(true);
      expect(state.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(state.findings.map((f) => f.code)).toContain('body-not-captured');
      await page.close();
    }
  });

  it('on through the panel switch: live, per chunk, resets and resumes judged, not doubled; off again detaches', async () => {
    const first = await chromium.browser.newPage();
    const { panel: settingsPanel } = await openPanel(first);
    await first.goto(`${site.origin}/`);
    await setSwitch(settingsPanel, true);
    console.log(`[fidelity on] ${await attachedStatus(settingsPanel, true)}`);
    await first.close();

    // Genuine: the Worker's POST stream is shown while it is open, its drain as a reset, the resume judged genuine.
    const genuine = await runIn('genuine');
    const live = await waitForPanel(genuine.panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    expect(live.streams.some((x) => x.source === 'network')).toBe(false);
    expect(await genuine.done).toMatch(/^done result/);
    const judged = await waitForPanel(genuine.panel, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open')`);
    console.log(`[fidelity on, genuine] streams ${judged.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}; findings ${judged.findings.map((f) => f.code).join(', ')}`);
    expect(judged.streams.some((x) => x.method === 'POST' && x.end === 'reset')).toBe(true);
    expect(judged.streams.filter((x) => x.source === 'network')).toEqual([]); // each request once: the network report paired with its copy
    expect(judged.findings.filter((f) => f.severity === 'error')).toEqual([]);
    await genuine.page.close();

    // Lost buffer: the invented replay is caught.
    const lost = await runIn('lost-buffer');
    await lost.done;
    const caught = await waitForPanel(lost.panel, `(s) => s.findings.some((f) => f.code === 'resume-seq-gap')`);
    console.log(`[fidelity on, lost-buffer] findings ${caught.findings.map((f) => `${f.severity} ${f.code}`).join(', ')}`);
    expect(caught.findings.find((f) => f.code === 'resume-seq-gap')!.severity).toBe('error');

    // Off again: detached, and the next Worker call is back to what the network panel reports.
    await setSwitch(lost.panel, false);
    console.log(`[fidelity off again] ${await attachedStatus(lost.panel, false)}`);
    await lost.page.close();
    const after = await runIn('genuine');
    await after.done;
    const plain = await waitForPanel(after.panel, `(s) => s.streams.length > 0 && s.streams.every((x) => x.end !== 'open')`);
    expect(plain.streams.every((x) => x.source === 'network')).toBe(true);
    expect((await readPanel(after.panel)).findings.filter((f) => f.severity === 'error')).toEqual([]);
    await after.page.close();
  }, 240_000);
});
