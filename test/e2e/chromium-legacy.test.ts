import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { waitForPanel } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

// The legacy HTTP+SSE transport (the SDK's SSEServerTransport), read three ways by the page:
// EventSource + XMLHttpRequest by hand, and the SDK's own SSEClientTransport (fetch-based).
describe('Chromium: the legacy HTTP+SSE transport through EventSource, XMLHttpRequest and fetch', () => {
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  useExtensionBrowser('chrome', launchChromium, (s, b) => {
    site = s;
    chromium = b;
  });

  const done = (page: Page) => page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), { polling: 100, timeout: 30_000 });

  it('captures an EventSource stream and the XMLHttpRequest POSTs of a hand-written client', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/legacy-native`);
    await done(page);
    // The GET stream: endpoint, the initialize result, 3 progress notifications, the tool result.
    const state = await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'GET' && x.events >= 6) && s.streams.filter((x) => x.method === 'POST' && x.status === '202').length >= 3`);
    expect(state.streams.find((x) => x.method === 'GET')!.end).toBe('cancelled'); // the page closed it
    expect(state.streams.every((x) => x.source === 'tap')).toBe(true); // not merely reconciled
    expect(state.dropped).toBe(0);
    await page.close();
  });

  it("captures the SDK's SSEClientTransport, whose GET is recognised by its endpoint event", async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/`);
    await page.evaluate(() => (window as unknown as { runLegacy(): void }).runLegacy());
    await done(page);
    const state = await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'GET' && x.events >= 6) && s.streams.some((x) => x.method === 'POST')`);
    expect(state.streams.find((x) => x.method === 'GET')!.source).toBe('tap');
    expect(state.dropped).toBe(0);
    await page.close();
  });
});
