import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { buildExtension } from './support/extension-build';
import { fidelityStatus, setFidelitySwitch } from './support/fidelity-switch';
import { readPanel, waitForPanel, waitForPanelToShow } from './support/panel-queries';
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

  /** A new tab with the panel open, running the Worker's call; `path` names the tab's URL for the probe. */
  async function runIn(scenario: string, path = '/', delayMs = 150): Promise<{ page: Page; devtools: Page; panel: Frame; done: Promise<string> }> {
    const page = await chromium.browser.newPage();
    const { devtools, panel } = await openPanel(page);
    await page.goto(`${site.origin}/`);
    await page.evaluate((p: string) => history.replaceState(null, '', p), path);
    await page.evaluate((s: string, d: number) => (window as unknown as { runWorker(s: string, n: number, d: number): void }).runWorker(s, 10, d), scenario, delayMs);
    const done = page
      .waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done') && document.getElementById('status')!.textContent, { polling: 100, timeout: 60_000 })
      .then((h) => h.jsonValue() as Promise<string>);
    return { page, devtools, panel, done };
  }

  /**
   * Asks the extension's own worker whether its debugger holds the tab at `url`: detaching a tab
   * it does not hold fails ("not attached"). A probe that finds it attached also detaches it.
   */
  async function probeAttached(url: string): Promise<string> {
    const target = await chromium.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
    const worker = (await target.worker())!;
    return worker.evaluate(async (origin: string) => {
      const api = (globalThis as unknown as { chrome: { debugger: { getTargets(): Promise<{ tabId?: number; url: string }[]>; detach(t: { tabId: number }): Promise<void> } } }).chrome.debugger;
      const tab = (await api.getTargets()).find((t) => t.tabId !== undefined && t.url.startsWith(origin));
      if (!tab) return 'no such tab';
      return api.detach({ tabId: tab.tabId! }).then(() => 'attached', (e: unknown) => `not attached: ${String(e)}`);
    }, url);
  }

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

  it('on through the panel switch: live, per chunk, resets and resumes judged, not doubled; closing the panel or turning it off detaches', async () => {
    const first = await chromium.browser.newPage();
    const { panel: settingsPanel } = await openPanel(first);
    await first.goto(`${site.origin}/`);
    await setFidelitySwitch(settingsPanel, true);
    console.log(`[fidelity on] ${await fidelityStatus(settingsPanel, true)}`);
    await first.close();

    // Genuine: the Worker's POST stream is shown while it is open, its drain as a reset, the resume judged genuine.
    const genuine = await runIn('genuine', '/genuine-tab');
    const live = await waitForPanelToShow(genuine.panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    expect(live.streams.some((x) => x.source === 'network')).toBe(false);
    expect(await genuine.done).toMatch(/^done result/);
    const judged = await waitForPanel(genuine.panel, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open')`);
    console.log(`[fidelity on, genuine] streams ${judged.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}; findings ${judged.findings.map((f) => f.code).join(', ')}`);
    expect(judged.streams.some((x) => x.method === 'POST' && x.end === 'reset')).toBe(true);
    expect(judged.streams.filter((x) => x.source === 'network')).toEqual([]); // each request once: the network report paired with its copy
    expect(judged.streams.every((x) => x.source === 'debugger')).toBe(true); // labelled as the debugger's copies, not the tap's
    expect(judged.findings.filter((f) => f.severity === 'error')).toEqual([]);

    // Lost buffer: the invented replay is caught.
    const lost = await runIn('lost-buffer', '/lost-tab');
    await lost.done;
    const caught = await waitForPanel(lost.panel, `(s) => s.findings.some((f) => f.code === 'resume-seq-gap')`);
    console.log(`[fidelity on, lost-buffer] findings ${caught.findings.map((f) => `${f.severity} ${f.code}`).join(', ')}`);
    expect(caught.findings.find((f) => f.code === 'resume-seq-gap')!.severity).toBe('error');
    // The probe sees the debugger on a tab whose panel asked for it (and detaches it).
    expect(await probeAttached(`${site.origin}/lost-tab`)).toBe('attached');
    await lost.page.close();

    // A panel closes, the switch still on: nothing stays attached to its tab.
    const closing = await runIn('genuine', '/closing-tab');
    await closing.done;
    await waitForPanel(closing.panel, `(s) => s.streams.length > 0`);
    await closing.devtools.close();
    const whileClosed = await probeAttached(`${site.origin}/closing-tab`);
    console.log(`[fidelity on, panel closed] ${whileClosed}`);
    expect(whileClosed).toMatch(/^not attached/);
    await closing.page.close();

    // The switch off: detached, and the next Worker call is back to what the network panel reports.
    await setFidelitySwitch(genuine.panel, false);
    console.log(`[fidelity off again] ${await fidelityStatus(genuine.panel, false)}`);
    const afterOff = await probeAttached(`${site.origin}/genuine-tab`);
    console.log(`[fidelity off again, probe] ${afterOff}`);
    expect(afterOff).toMatch(/^not attached/);
    await genuine.page.close();
    const after = await runIn('genuine', '/after-tab');
    await after.done;
    const plain = await waitForPanel(after.panel, `(s) => s.streams.length > 0 && s.streams.every((x) => x.end !== 'open')`);
    expect(plain.streams.every((x) => x.source === 'network')).toBe(true);
    expect((await readPanel(after.panel)).findings.filter((f) => f.severity === 'error')).toEqual([]);
    await after.page.close();
  }, 240_000);

  it('turned off mid-stream: the open stream ends unknown, never complete, and the call is not called lost once its resume is reported', async () => {
    const first = await chromium.browser.newPage();
    const { panel: settingsPanel } = await openPanel(first);
    await first.goto(`${site.origin}/`);
    await setFidelitySwitch(settingsPanel, true);
    await fidelityStatus(settingsPanel, true);
    await first.close();

    const mid = await runIn('genuine', '/mid-tab', 400);
    await waitForPanelToShow(mid.panel, `(s) => s.streams.some((x) => x.source === 'debugger' && x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    await setFidelitySwitch(mid.panel, false);
    await fidelityStatus(mid.panel, false);
    const cut = await waitForPanel(mid.panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'unknown' && x.events >= 2)`);
    console.log(`[fidelity off mid-stream] ${cut.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}`);
    // Detaching took nothing from the Worker: its call still ends with the result.
    expect(await mid.done).toMatch(/^done result/);
    const settled = await waitForPanel(mid.panel, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open')`);
    console.log(`[fidelity off mid-stream, settled] ${settled.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}; findings ${settled.findings.map((f) => f.code).join(', ')}`);
    // The cut stream stays unknown: the network panel's later report of it does not make it complete.
    expect(settled.streams.some((x) => x.source === 'debugger' && x.method === 'POST' && x.end === 'unknown' && x.events >= 2)).toBe(true);
    expect(settled.findings.map((f) => f.code)).not.toContain('result-lost');
    expect(settled.findings.filter((f) => f.severity === 'error')).toEqual([]);
    await mid.page.close();
  }, 120_000);
});
