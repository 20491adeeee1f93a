import { describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { readPanel, waitForPanel } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

// The tap's brand, as a page script would spell it when forging (tests may not import src/).
const TAP = 'mcp-stream-lens/tap';

describe('Chromium: pages that are not MCP, and pages that lie', () => {
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  useExtensionBrowser('chrome', launchChromium, (s, b) => {
    site = s;
    chromium = b;
  });

  it('captures nothing and sends nothing for a page without MCP traffic', async () => {
    const page = await chromium.browser.newPage();
    // Counts every message the tap posts on the page's window: the only way anything leaves it.
    await page.evaluateOnNewDocument(`(() => {
      window.__tapMessages = 0;
      addEventListener('message', (e) => { if (e.data && e.data.source === '${TAP}') window.__tapMessages += 1; });
    })()`);
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/plain`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'done', { polling: 100, timeout: 30_000 });

    // The panel got its (empty) history and the counters; the page posted nothing at all.
    await panel.waitForSelector('[data-testid="dropped-count"]');
    expect(await page.evaluate('window.__tapMessages')).toBe(0);
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
});
