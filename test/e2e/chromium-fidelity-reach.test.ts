import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { buildExtension } from './support/extension-build';
import { fidelityStatus, fidelityWorkers, setFidelitySwitch } from './support/fidelity-switch';
import { waitForPanel, waitForPanelToShow, type PanelState } from './support/panel-queries';
import { startWorkerSite, type WorkerSite } from './support/worker-site';

// Issue 21, what the tap cannot reach: the real SDK client in the page, once with the fetch of
// an about:blank frame (the tap is injected only into http(s) frames, so it never sees these
// requests) and once with the page's own fetch (which the tap wraps); then in a SharedWorker,
// which a tab's auto-attach does not reach either. With "Capture workers and early requests" on,
// the debugger follows the page target's requests too: the frame's stream appears live as the
// debugger's copy, and the page's requests, copied by both, appear once. It attaches the tab's
// shared workers by target id, and detaches them with the switch.
describe('Chromium: full fidelity catches what the tap cannot see (early requests, shared workers), and doubles nothing', () => {
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let site: WorkerSite;
  beforeAll(async () => {
    const [dir, started] = await Promise.all([buildExtension('chrome', { pregrant: true }), startWorkerSite(['genuine'])]);
    site = started;
    chromium = await launchChromium(dir);
  });
  afterAll(async () => {
    await chromium?.close();
    await site?.close();
  });

  async function runIn(panelPage: { page: Page; panel: Frame }, pristine: boolean): Promise<Promise<string>> {
    const { page } = panelPage;
    await page.evaluate((p: boolean) => (window as unknown as { runFrame(s: string, n: number, d: number, p: boolean): void }).runFrame('genuine', 10, 150, p), pristine);
    return page
      .waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done') && document.getElementById('status')!.textContent, { polling: 100, timeout: 60_000 })
      .then((h) => h.jsonValue() as Promise<string>);
  }

  async function tab(fidelity: boolean): Promise<{ page: Page; panel: Frame }> {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/`);
    if (fidelity) {
      await setFidelitySwitch(panel, true);
      await fidelityStatus(panel, true);
    }
    return { page, panel };
  }

  const settled = (panel: Frame) => waitForPanel(panel, `(s) => s.streams.length > 0 && s.streams.every((x) => x.end !== 'open')`);
  // How a page's DELETE ends races its page's teardown; which requests were made, and their events, do not.
  const shape = (s: PanelState) => s.streams.map((x) => `${x.method} ${x.events}`).sort();
  const line = (s: PanelState) => s.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ');

  it('off: the frame\'s requests escape the tap: the network panel alone reports them, a reset stream\'s body not captured, no false error', async () => {
    const early = await tab(false);
    expect(await runIn(early, true)).toMatch(/^done result/);
    const escaped = await settled(early.panel);
    console.log(`[early, fidelity off] ${line(escaped)}`);
    expect(escaped.streams.every((x) => x.source === 'network')).toBe(true);
    // Chrome keeps no body of a reset stream (it may still hand over a completed one's, if the
    // frame is still there when the panel asks): what it lacks is said, never judged an error.
    expect(escaped.streams.filter((x) => x.end === 'reset').every((x) => x.events === 0)).toBe(true);
    expect(escaped.findings.filter((f) => f.severity === 'error')).toEqual([]);
    await early.page.close();
  });

  it('on: the frame\'s stream is live as the debugger\'s copy; the page\'s requests appear once each, as the tap\'s', async () => {
    // Off first, for the page's own requests: what one copy of each looks like.
    const plain = await tab(false);
    expect(await runIn(plain, false)).toMatch(/^done result/);
    const once = await settled(plain.panel);
    console.log(`[page, fidelity off] ${line(once)}`);
    expect(once.streams.every((x) => x.source === 'tap')).toBe(true);
    await plain.page.close();

    const early = await tab(true);
    const done = runIn(early, true);
    const live = await waitForPanelToShow(early.panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    console.log(`[early, fidelity on, live] ${line(live)}`);
    expect(live.streams.filter((x) => x.end === 'open').every((x) => x.source === 'debugger')).toBe(true);
    expect(await done).toMatch(/^done result/);
    const judged = await waitForPanel(early.panel, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open') && s.streams.every((x) => x.end !== 'open')`);
    console.log(`[early, fidelity on] ${line(judged)}; findings ${judged.findings.map((f) => f.code).join(', ')}`);
    expect(judged.streams.every((x) => x.source === 'debugger')).toBe(true); // each paired with its network report
    expect(judged.streams.some((x) => x.method === 'POST' && x.end === 'reset')).toBe(true);
    expect(judged.findings.filter((f) => f.severity === 'error')).toEqual([]);
    await early.page.close();

    const both = await tab(true);
    expect(await runIn(both, false)).toMatch(/^done result/);
    const merged = await settled(both.panel);
    console.log(`[page, fidelity on] ${line(merged)}`);
    // Once each, with its body: the first copy to open is the one kept (twins.ts), and the
    // debugger's open at the response may beat the tap's batch, so either copy may stand.
    expect(merged.streams.every((x) => x.source === 'tap' || x.source === 'debugger')).toBe(true);
    expect(shape(merged)).toEqual(shape(once));
    expect(merged.dropped).toBe(0);
    await both.page.close();
  }, 240_000);

  /** Detaches the extension's debugger from the shared worker of the site (the probe of chromium-fidelity.test.ts, by target id). */
  async function probeShared(): Promise<string> {
    const target = await chromium.browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'));
    const worker = (await target.worker())!;
    return worker.evaluate(async (url: string) => {
      const api = (globalThis as unknown as { chrome: { debugger: { getTargets(): Promise<{ id: string; url: string }[]>; detach(t: { targetId: string }): Promise<void> } } }).chrome.debugger;
      const shared = (await api.getTargets()).find((t) => t.url === url);
      if (!shared) return 'no such target';
      return api.detach({ targetId: shared.id }).then(() => 'attached', (e: unknown) => `not attached: ${String(e)}`);
    }, `${site.origin}/shared.js`);
  }

  it('on: a SharedWorker\'s MCP stream is live, judged genuine, and the switch off detaches it', async () => {
    const shared = await tab(true);
    await shared.page.evaluate(() => (window as unknown as { startShared(): void }).startShared());
    // The debugger found and attached it: only then does the Worker make its call.
    console.log(`[shared worker, fidelity on] workers followed: ${await fidelityWorkers(shared.panel, 1)}`);
    await shared.page.evaluate(() => (window as unknown as { runShared(s: string, n: number, d: number): void }).runShared('genuine', 10, 150));
    const live = await waitForPanelToShow(shared.panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    console.log(`[shared worker, live] ${line(live)}`);
    expect(live.streams.every((x) => x.source === 'debugger')).toBe(true);
    const done = await shared.page
      .waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done') && document.getElementById('status')!.textContent, { polling: 100, timeout: 60_000 })
      .then((h) => h.jsonValue() as Promise<string>);
    expect(done).toMatch(/^done result/);
    const judged = await waitForPanel(shared.panel, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open') && s.streams.every((x) => x.end !== 'open')`);
    console.log(`[shared worker] ${line(judged)}; findings ${judged.findings.map((f) => f.code).join(', ')}`);
    expect(judged.streams.some((x) => x.method === 'POST' && x.end === 'reset')).toBe(true);
    expect(judged.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(judged.dropped).toBe(0);

    await setFidelitySwitch(shared.panel, false);
    await fidelityStatus(shared.panel, false);
    const afterOff = await probeShared();
    console.log(`[shared worker, fidelity off] ${afterOff}`);
    expect(afterOff).toMatch(/^not attached/);
    await shared.page.close();
  }, 120_000);
});
