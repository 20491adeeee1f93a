import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { readPanel, waitForPanel } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

// The tap's brand, as a page script would spell it when forging (tests may not import src/).
const TAP = 'mcp-stream-lens/tap';

/**
 * Counts, by message type, everything the tap posts: on the page's window (its one port
 * hand-over) and on its private port. Puppeteer's init scripts run before the extension's
 * document_start content scripts, so the tap takes this counting `postMessage` for its own.
 */
const WATCH_TAP_POSTS = `(() => {
  const posts = (window.__tapPosts = { window: {}, port: {}, items: 0 });
  const bump = (where, type) => { where[type] = (where[type] || 0) + 1; };
  addEventListener('message', (e) => { if (e.data && e.data.source === '${TAP}') bump(posts.window, e.data.type); }, true);
  const send = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function (m, ...rest) {
    if (m && m.source === '${TAP}') {
      bump(posts.port, m.type);
      if (m.type === 'tap-batch') posts.items += m.items.length;
    }
    return send.call(this, m, ...rest);
  };
})()`;

interface TapPosts {
  window: Record<string, number>;
  port: Record<string, number>;
  /** Items in all tap batches. */
  items: number;
}
const tapPosts = (page: Page) => page.evaluate('window.__tapPosts') as Promise<TapPosts>;

describe('Chromium: pages that are not MCP, and pages that lie', () => {
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  useExtensionBrowser('chrome', launchChromium, (s, b) => {
    site = s;
    chromium = b;
  });

  it('captures nothing and sends nothing for a page without MCP traffic', async () => {
    const page = await chromium.browser.newPage();
    await page.evaluateOnNewDocument(WATCH_TAP_POSTS);
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/plain`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', { polling: 100, timeout: 30_000 });

    // The panel got its (empty) history and the counters; the tap handed over its port and
    // posted nothing else, although a panel is attached.
    await panel.waitForSelector('[data-testid="dropped-count"]');
    expect(await tapPosts(page)).toEqual({ window: { 'tap-port': 1 }, port: {}, items: 0 });
    const state = await readPanel(panel);
    expect(state.sessions).toBe(0);
    expect(state.streams).toEqual([]);
    expect(state.dropped).toBe(0);
    await page.close();
  });

  it('drops and counts forged and oversized messages posted into the relay channel', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/plain`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', { polling: 100, timeout: 30_000 });

    await page.evaluate((source: string) => {
      const post = (m: unknown) => window.postMessage(m, '*');
      post({ source, v: 99, type: 'tap-batch', items: [], dropped: 0 }); // wrong protocol version
      post({ source, v: 1, type: 'tap-batch', items: 'not a list', dropped: 0 }); // malformed envelope
      post({ source, v: 1, type: 'tap-batch', items: [{ kind: 'chunk', stream: 99, time: 1, bytes: 1, text: 'x' }], dropped: 0 }); // never opened
      post({ source, v: 1, type: 'tap-batch', items: [{ kind: 'chunk', stream: 1, time: 1, bytes: 3, text: 'x'.repeat(3_000_000) }], dropped: 0 }); // oversized
      post({ source, v: 1, type: 'tap-batch', items: [{ kind: 'open', stream: 2, api: 'fetch', request: { method: 'POST', url: 'u'.repeat(100_000), headers: [], startTime: 1 } }], dropped: 0 }); // oversized URL
      post({ source, v: 1, type: 'tap-batch', items: [{ kind: '<img src=x onerror=alert(1)>', stream: 3 }], dropped: 0 }); // unknown kind
    }, TAP);

    const state = await waitForPanel(panel, `(s) => s.rejected === 6`);
    expect(state.dropped).toBe(6);
    expect(state.streams).toEqual([]);
    expect(state.sessions).toBe(0);
    await page.close();
  });

  it('holds an MCP page\'s captures while no panel is attached: one hello, then the history once one attaches', async () => {
    const page = await chromium.browser.newPage();
    await page.evaluateOnNewDocument(WATCH_TAP_POSTS);
    const before = site.mcpRequests.length;
    // The real SDK client, initialize and a tool call with three progress events, DevTools closed.
    await page.goto(`${site.origin}/?steps=3&delay=10`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), { polling: 100, timeout: 60_000 });
    const requests = site.mcpRequests.length - before;
    expect(requests).toBeGreaterThanOrEqual(4);
    const detached = await tapPosts(page);
    expect(detached).toEqual({ window: { 'tap-port': 1 }, port: { 'tap-hello': 1 }, items: 0 });

    // A panel attaches: the history comes over the port, and nothing more on the window.
    const { panel } = await openPanel(page);
    await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'POST' && x.events >= 5)`);
    const attached = await tapPosts(page);
    expect(attached.window).toEqual({ 'tap-port': 1 });
    expect(attached.port['tap-hello']).toBe(1);
    expect(attached.port['tap-batch']).toBeGreaterThanOrEqual(1);
    expect(attached.items).toBeGreaterThan(0);
    expect(await readPanel(panel).then((s) => s.dropped)).toBe(0);
    console.log(
      `no panel: ${requests} MCP requests made; the tap posted 1 window message (its port), 1 hello, 0 batches (0 items); ` +
        `after attach: ${attached.port['tap-batch']} batches, ${attached.items} items of history`,
    );
    await page.close();
  });
});
