import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/extension-build';
import { inPage, launchFirefox } from './support/firefox';
import { waitForPanel, waitForPanelToShow } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

// Real Firefox ESR with the Firefox build; the capture is read in the extension's viewer.
describe('Firefox: live capture', () => {
  let site: Site;
  let firefox: Awaited<ReturnType<typeof launchFirefox>>;
  useExtensionBrowser('firefox', launchFirefox, (s, b) => {
    site = s;
    firefox = b;
  });

  it('sends nothing from a page without MCP traffic', async () => {
    const page = await firefox.browser.newPage();
    await page.evaluateOnNewDocument(`(() => {
      window.__tapMessages = [];
      addEventListener('message', (e) => { if (e.data && e.data.source === 'mcp-stream-lens/tap') window.__tapMessages.push(e.data.type); });
    })()`);
    await page.goto(`${site.origin}/plain`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', { polling: 100, timeout: 30_000 });
    // The tap's one window message is the empty hand-over of its private port, posted at
    // document_start; whether this listener (a preload script) is in place by then depends on
    // Firefox's order of injection. Anything else from the tap would be captured data.
    const seen = (await page.evaluate('window.__tapMessages')) as string[];
    expect(seen.filter((type) => type !== 'tap-port')).toEqual([]);
    expect(seen.length).toBeLessThanOrEqual(1);
    await page.close();
  });

  it('captures events while the stream is open, then the reset and the resume GET with its Last-Event-ID', async () => {
    const { page } = firefox;
    await page.goto(`${site.origin}/`);
    await page.evaluate(() => void (window as unknown as { runMcp(s: number, d: number): void }).runMcp(100, 100));

    const viewer = await firefox.openViewer();
    await viewer.waitForSelector('[data-testid="tab-choice"]', { timeout: 30_000 });
    await viewer.click('[data-testid="tab-choice"]');
    const frame = inPage(viewer);

    const live = await waitForPanelToShow(frame, `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'open' && x.events >= 3 && x.rows >= 3)`);
    expect(live.sessions).toBe(1);
    expect(site.resetStreams()).toBeGreaterThanOrEqual(1);

    const resumed = await waitForPanel(
      frame,
      `(s) => s.streams.some((x) => x.method === 'POST' && x.end === 'reset') && s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '' && x.events >= 1)`,
    );
    const resume = resumed.streams.find((x) => x.method === 'GET' && x.lastEventId !== '')!;
    expect(site.mcpRequests.some((r) => r.method === 'GET' && r.lastEventId === resume.lastEventId)).toBe(true);
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), { polling: 100, timeout: 60_000 });
    const final = await waitForPanel(frame, `(s) => s.dropped === 0`);
    expect(final.findings.filter((f) => f.severity === 'error')).toEqual([]);

    mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
    await viewer.screenshot({ path: resolve(ROOT, 'test-results/firefox-viewer.png') });
    await viewer.close();
  });

  it("adds what only the toolbox's network monitor saw: an MCP request made from a worker", async () => {
    const { page } = firefox;
    await page.goto(`${site.origin}/worker`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', { polling: 100, timeout: 30_000 });
    const viewer = await firefox.openViewer();
    await viewer.waitForSelector('[data-testid="tab-choice"]', { timeout: 30_000 });
    await viewer.click('[data-testid="tab-choice"]');
    const state = await waitForPanel(inPage(viewer), `(s) => s.streams.some((x) => x.source === 'network' && x.method === 'POST')`, 20_000);
    expect(state.streams.filter((x) => x.source === 'network')).toHaveLength(1);
    await viewer.close();
  });
});
