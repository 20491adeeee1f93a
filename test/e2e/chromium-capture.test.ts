import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { ROOT } from './support/extension-build';
import { waitForPanel, waitForPanelToShow } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

// Real Chromium, the built extension, DevTools open on the page, assertions made in the panel.
describe('Chromium: live capture in the MCP Streams panel', () => {
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  useExtensionBrowser('chrome', launchChromium, (s, b) => {
    site = s;
    chromium = b;
  });

  const waitForStatus = (page: Page, prefix: string) =>
    page.waitForFunction((p: string) => document.getElementById('status')?.textContent?.startsWith(p), { polling: 100, timeout: 60_000 }, prefix);

  it('shows events while the stream is open, then the reset and the resume GET with its Last-Event-ID', async () => {
    const page = await chromium.browser.newPage();
    const { devtools, panel } = await openPanel(page);
    await page.goto(`${site.origin}/`);
    await page.evaluate(() => void (window as unknown as { runMcp(s: number, d: number): void }).runMcp(100, 100));

    // Live: the tool call's POST stream is still open and its progress events are already listed.
    const live = await waitForPanelToShow(panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 3 && x.rows >= 3)`);
    expect(live.sessions).toBe(1);
    expect(site.resetStreams()).toBeGreaterThanOrEqual(1);

    // The reset stream, then the SDK's resume: a GET carrying Last-Event-ID, replayed by the server.
    const resumed = await waitForPanel(
      panel,
      `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'reset') && s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.events >= 1)`,
    );
    const resume = resumed.streams.find((x) => x.method === 'GET' && x.lastEventId !== '')!;
    expect(site.mcpRequests.some((r) => r.method === 'GET' && r.lastEventId === resume.lastEventId)).toBe(true);
    await waitForStatus(page, 'done');
    const final = await waitForPanel(panel, `(s) => s.dropped === 0 && s.streams.every((x) => x.end !== 'open' || x.method === 'GET')`);
    expect(final.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // DevTools' network panel saw every one of these too: each is still listed once, as the tap saw it.
    expect(final.streams.filter((x) => x.source === 'network')).toEqual([]);
    expect(final.streams.filter((x) => x.method === 'POST' && x.end === 'reset')).toHaveLength(1);

    mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
    await devtools.screenshot({ path: resolve(ROOT, 'test-results/chromium-panel.png') });
    await page.close();
  });

  it('keeps capturing when the MV3 service worker is killed mid-stream, and loses nothing silently', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/`);
    const steps = 60;
    await page.evaluate((n: number) => void (window as unknown as { runMcp(s: number, d: number): void }).runMcp(n, 100), steps);
    const before = await waitForPanelToShow(panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 3)`);
    const seen = before.streams.find((x) => x.method === 'POST' && x.end === 'open')!.events;

    // What Chrome does to an idle MV3 worker, done on purpose: stop it, as chrome://serviceworker-internals
    // does. (Closing the worker's CDP target instead leaves the restarted worker paused for a debugger.)
    const cdp = await page.createCDPSession();
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');

    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), { polling: 100, timeout: 60_000 });
    // The tool's stream: a priming event, one progress event per step, the result.
    const expected = steps + 2;
    const after = await waitForPanel(panel, `(s) => s.streams.some((x) => x.method === 'POST' && x.end !== 'open' && x.events + s.dropped >= ${expected} && x.events > ${seen})`);
    const stream = after.streams.find((x) => x.method === 'POST' && x.events > seen)!;
    expect(stream.events + after.dropped).toBeGreaterThanOrEqual(expected);
    await page.close();
  });

  it('keeps a stream reset in the middle of an event as a truncated event, not a parsed one', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/plain`);
    const read = page.evaluate(async () => {
      const response = await fetch('/cut', { headers: { accept: 'text/event-stream', 'mcp-session-id': 'cut-session' } });
      return response.text().then(() => 'no error', (e: unknown) => String(e));
    });
    // The whole event has arrived (and with it, in the same write, half of the next one).
    await waitForPanel(panel, `(s) => s.streams.some((x) => x.end === 'open' && x.events === 1)`);
    expect(site.cutStreams()).toBe(1);
    expect(await read).toMatch(/TypeError/);
    const state = await waitForPanel(panel, `(s) => s.streams.some((x) => x.end === 'reset')`);
    expect(state.findings.map((f) => f.code)).not.toContain('malformed-event');
    // The state is read from the store; the table renders it on the next frame.
    await panel.waitForFunction(() => document.querySelectorAll('[data-testid="event-row"]').length >= 2, { polling: 'raf', timeout: 10_000 });
    const rows = await panel.$$eval('[data-testid="event-row"]', (els) => els.map((el) => ({ id: (el as HTMLElement).dataset.id, truncated: (el as HTMLElement).dataset.truncated ?? '', text: el.textContent })));
    expect(rows).toHaveLength(2);
    expect(rows[0]!.truncated).toBe('');
    expect(rows[1]!.truncated).toBe('true');
    expect(rows[1]!.text).toContain('notifications/progr');
    await page.close();
  });

  it('adds what only the network panel saw: an MCP request made from a worker', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/worker`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', { polling: 100, timeout: 30_000 });
    const state = await waitForPanel(panel, `(s) => s.streams.some((x) => x.source === 'network' && x.method === 'POST' && x.status === '200')`);
    expect(state.sessions).toBe(1);
    expect(state.streams).toHaveLength(1);
    await page.close();
  });

  it('shows the buffered history when DevTools opens late, and "Reload and capture from start" starts over', async () => {
    const page = await chromium.browser.newPage();
    await page.goto(`${site.origin}/?steps=3&delay=10`);
    await waitForStatus(page, 'done');

    const { panel } = await openPanel(page);
    const history = await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'POST' && x.events >= 4)`);
    expect(history.dropped).toBe(0);
    const before = await panel.$eval('[data-testid="session-row"]', (el) => (el as HTMLElement).dataset.key);

    await panel.click('[data-testid="reload-capture"]');
    await waitForStatus(page, 'done');
    const after = await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'POST' && x.events >= 4)`);
    expect(after.sessions).toBe(1);
    const key = await panel.$eval('[data-testid="session-row"]', (el) => (el as HTMLElement).dataset.key);
    expect(key).not.toBe(before);
    await page.close();
  });
});
