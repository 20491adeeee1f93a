import type { Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExtension } from './support/extension-build';
import { inPage, launchFirefox } from './support/firefox';
import { waitForPanel, type PanelState } from './support/panel-queries';
import { startWorkerSite, type WorkerSite } from './support/worker-site';

// Issue 21 (2, 3), Firefox: the real SDK client in a dedicated Worker (invisible to the page tap),
// against the real SDK server behind the demo's load balancer, with "Capture workers and early
// requests" off, then turned on through the panel's switch (webRequest + StreamFilter), then off.
// The permissions are asked for by the switch; the profile lets Firefox grant optional
// permissions without its prompt (`extensions.webextOptionalPermissionPrompts`, what Firefox's
// own tests use), but only from the click: Firefox refuses a request outside a user gesture.
describe('Firefox: full-fidelity capture of a Worker\'s MCP streams', () => {
  let firefox: Awaited<ReturnType<typeof launchFirefox>>;
  let site: WorkerSite;
  beforeAll(async () => {
    const [dir, started] = await Promise.all([buildExtension('firefox'), startWorkerSite(['genuine', 'lost-buffer'])]);
    site = started;
    firefox = await launchFirefox(dir, { prefs: { 'extensions.webextOptionalPermissionPrompts': false } });
  });
  afterAll(async () => {
    await firefox?.close();
    await site?.close();
  });

  const run = async (page: Page, scenario: string, delayMs: number) => {
    await page.evaluate((s: string, d: number) => (window as unknown as { runWorker(s: string, n: number, d: number): void }).runWorker(s, 10, d), scenario, delayMs);
    return page
      .waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done') && document.getElementById('status')!.textContent, { polling: 100, timeout: 60_000 })
      .then((h) => h.jsonValue() as Promise<string>);
  };

  async function setSwitch(viewer: Page, on: boolean): Promise<string> {
    await viewer.click('[data-testid="settings-toggle"]');
    const box = await viewer.waitForSelector('[data-testid="settings-fidelity"]');
    if ((await box!.evaluate((b) => (b as HTMLInputElement).checked)) !== on) await viewer.click('[data-testid="settings-fidelity"]');
    await viewer.click('[data-testid="settings-save"]');
    await viewer.waitForSelector('[data-testid="settings"]', { hidden: true });
    // The background says whether its listeners are on the tab.
    await viewer.click('[data-testid="settings-toggle"]');
    const status = await inPage(viewer).waitForFunction(
      (want: string) => {
        const s = document.querySelector('[data-testid="fidelity-status"]') as HTMLElement | null;
        return s && (s.dataset.attached === want || s.textContent!.startsWith('Not attached:')) ? `${s.dataset.attached} ${s.textContent}` : null;
      },
      { polling: 100, timeout: 30_000 },
      String(on),
    );
    const text = (await status.jsonValue()) as string;
    await viewer.click('[data-testid="settings-toggle"]');
    expect(text).toMatch(new RegExp(`^${on} `));
    return text;
  }

  /** Shows the newest session (sessions are listed by start time). */
  const showNewest = (frame: Frame) => frame.evaluate(() => (Array.from(document.querySelectorAll('[data-testid="session-row"]')).at(-1) as HTMLElement).click());

  const line = (s: PanelState) => `${s.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}; findings ${s.findings.map((f) => `${f.severity} ${f.code}`).join(', ')}`;
  const network = (s: PanelState) => s.streams.filter((x) => x.source === 'network').length;

  it('off, then on through the switch: live and per chunk, resets and resumes judged, nothing doubled; off again: network-only', async () => {
    const { page } = firefox;
    await page.goto(`${site.origin}/`);
    expect(await run(page, 'genuine', 50)).toMatch(/^done /);
    const viewer = await firefox.openViewer();
    const frame: Frame = inPage(viewer);
    await viewer.waitForSelector('[data-testid="tab-choice"]', { timeout: 30_000 });
    await viewer.click('[data-testid="tab-choice"]');
    const off = await waitForPanel(frame, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '')`, 30_000);
    console.log(`[firefox fidelity off] ${line(off)}`);
    expect(off.streams.every((x) => x.source === 'network')).toBe(true);

    console.log(`[firefox fidelity on] ${await setSwitch(viewer, true)}`);
    // Genuine: the Worker's POST stream is shown while it is open, event by event.
    const genuine = run(page, 'genuine', 150);
    const live = await waitForPanel(frame, `(s) => s.streams.some((x) => x.source === 'network-filter' && x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    console.log(`[firefox fidelity on, live] ${line(live)}`);
    expect(await genuine).toMatch(/^done result/);
    const judged = await waitForPanel(frame, `(s) => s.streams.some((x) => x.source === 'network-filter' && x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open')`);
    console.log(`[firefox fidelity on, genuine] ${line(judged)}`);
    const taken = judged.streams.filter((x) => x.source !== 'network');
    // The Worker's requests are the network filter's copies, and say so (Firefox has no debugger here).
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.every((x) => x.source === 'network-filter')).toBe(true);
    const labels = await frame.evaluate(() => Array.from(document.querySelectorAll('[data-testid="stream-row"][data-source="network-filter"] .muted'), (m) => m.textContent));
    expect(labels.length).toBe(taken.length);
    expect(labels.every((t) => t === "by the browser's network filter")).toBe(true);
    // The drained POST is a reset (onErrorOccurred), not a false "complete".
    expect(taken.some((x) => x.method === 'POST' && x.end === 'reset')).toBe(true);
    // Each request once: the network monitor's report of each paired with the webRequest copy.
    expect(network(judged)).toBe(0);
    expect(judged.findings.filter((f) => f.severity === 'error')).toEqual([]);

    // A request of the page itself, which the tap records: left to the tap, so it is listed once.
    // Run as a page script (the page's own fetch, which the tap wraps), not as the test's evaluation.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = `fetch('/s/genuine/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } }) })
        .then((r) => r.text()).then(() => { document.title = 'page call done'; });`;
      document.head.append(script);
    });
    await page.waitForFunction(() => document.title === 'page call done', { polling: 100, timeout: 30_000 });
    await waitForPanel(frame, `(s) => s.sessions > ${judged.sessions}`);
    await showNewest(frame);
    const pageOwn = await waitForPanel(frame, `(s) => s.streams.length > 0 && s.streams.every((x) => x.method === 'POST' && x.end !== 'open')`);
    console.log(`[firefox fidelity on, page request] ${line(pageOwn)}`);
    expect(pageOwn.streams).toHaveLength(1);
    expect(pageOwn.streams[0]!.events).toBeGreaterThanOrEqual(1);

    // Lost buffer: the invented replay is caught.
    const sessions = pageOwn.sessions;
    await run(page, 'lost-buffer', 50);
    await waitForPanel(frame, `(s) => s.sessions > ${sessions}`);
    await showNewest(frame);
    const caught = await waitForPanel(frame, `(s) => s.findings.some((f) => f.code === 'resume-seq-gap')`);
    console.log(`[firefox fidelity on, lost-buffer] ${line(caught)}`);
    expect(caught.findings.find((f) => f.code === 'resume-seq-gap')!.severity).toBe('error');
    expect(network(caught)).toBe(0);

    // Off: the listeners go, and the next Worker call is what the network monitor reports again.
    console.log(`[firefox fidelity off again] ${await setSwitch(viewer, false)}`);
    await run(page, 'genuine', 50);
    // The next call's session.
    await waitForPanel(frame, `(s) => s.sessions > ${caught.sessions}`);
    await showNewest(frame);
    const plain = await waitForPanel(frame, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open')`);
    console.log(`[firefox fidelity off again, next call] ${line(plain)}`);
    expect(plain.streams.every((x) => x.source === 'network')).toBe(true);
    await viewer.close();
  }, 240_000);

  it('turned off mid-stream: the open stream ends unknown, never complete, and the Worker\'s call still gets every byte', async () => {
    const { page } = firefox;
    const viewer = await firefox.openViewer();
    const frame: Frame = inPage(viewer);
    await viewer.waitForSelector('[data-testid="tab-choice"]', { timeout: 30_000 });
    await viewer.click('[data-testid="tab-choice"]');
    const before = await waitForPanel(frame, `(s) => s.sessions > 0`);
    await setSwitch(viewer, true);
    const call = run(page, 'genuine', 300);
    await waitForPanel(frame, `(s) => s.sessions > ${before.sessions}`);
    await showNewest(frame);
    await waitForPanel(frame, `(s) => s.streams.some((x) => x.source === 'network-filter' && x.method === 'POST' && x.end === 'open' && x.events >= 2)`);
    await setSwitch(viewer, false);
    const cut = await waitForPanel(frame, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'unknown' && x.events >= 2)`);
    console.log(`[firefox fidelity off mid-stream] ${line(cut)}`);
    // The filter handed the rest of the response back to Firefox: the SDK client finishes its call.
    expect(await call).toMatch(/^done result/);
    // Once the resume that delivered the result is reported, the call is not called lost.
    const settled = await waitForPanel(frame, `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.end !== 'open')`);
    console.log(`[firefox fidelity off mid-stream, settled] ${line(settled)}`);
    expect(settled.findings.map((f) => f.code)).not.toContain('result-lost');
    await viewer.close();
  }, 120_000);
});
