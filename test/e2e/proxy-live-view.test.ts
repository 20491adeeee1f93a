import { request } from 'node:http';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ElementHandle } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { runLongTask } from '../../demo/client/long-task-client.js';
import { ERROR_RED, pixelsAt } from './support/canvas-pixels';
import { ROOT } from './support/extension-build';
import { openLiveView } from './support/proxy-live-view';
import { waitForPanel } from './support/panel-queries';

// The proxy's live view in real Chromium: the built CLI (npm run build:cli, build:shell) in front
// of the demo's lost-buffer balancer and real SDK servers, the real SDK client calling through it
// with slow progress, and the page watched while the call's stream is still open.

/** A GET to the view server with any Host header (fetch cannot forge one). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
    req.on('error', reject).end();
  });
}

describe('mcp-stream-lens proxy: the live view in Chromium', () => {
  it('shows an event while its stream is open, then the red marker after the bad resume; refuses other hosts and missing tokens', async () => {
    const { cli, url, viewUrl, page, errors, close } = await openLiveView('lost-buffer', { query: '&theme=light', viewport: { width: 1400, height: 900 } });
    try {
      // Progress every 1.5 s: the drain comes after app_seq 5, about 7 s in.
      const call = runLongTask(url, { steps: 12, delayMs: 1500, idempotencyKey: 'live-view' });
      const open = await waitForPanel(page.mainFrame(), `(s) => s.streams.some((r) => r.method === 'POST' && r.end === 'open' && r.events >= 2)`);
      expect(open.streams.find((r) => r.method === 'POST' && r.end === 'open')!.events).toBeGreaterThanOrEqual(2);
      // That stream was open in the proxy too, not just in the view.
      expect(cli.stderr()).not.toContain('stopping');

      const run = await call;
      expect('result' in run.belief).toBe(true); // the client believed the invented result
      const marker = (await page.waitForSelector('[data-testid="resume-marker"][data-verdict="gap"]', { timeout: 30_000 })) as ElementHandle<HTMLElement>;
      const [r, g, b] = await marker.evaluate((el) => getComputedStyle(el).backgroundColor.match(/\d+/g)!.map(Number));
      expect(r).toBeGreaterThan(190);
      expect(g! + b!).toBeLessThan(r! * 1.4);
      await page.waitForSelector('[data-testid="timeline"] canvas[data-painted]');
      const red = await pixelsAt(marker, ERROR_RED.light);
      expect(red).toBeGreaterThan(50);
      await page.waitForSelector('[data-testid="finding"][data-code="resume-seq-gap"][data-severity="error"]');
      mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
      await page.screenshot({ path: resolve(ROOT, 'test-results/proxy-live-view.png') });
      expect(errors).toEqual([]);

      // DNS rebinding and a missing token are refused; the page's own address with its token is not.
      const view = new URL(viewUrl);
      expect(await getWithHost(viewUrl, `rebound.example:${view.port}`)).toBe(421);
      expect(await getWithHost(`${view.origin}/feed?token=wrong`, view.host)).toBe(403);
      expect(await getWithHost(`${view.origin}/`, view.host)).toBe(403);
      expect(await getWithHost(viewUrl, `localhost:${view.port}`)).toBe(200);

      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(1);
      expect(cli.stdout()).toMatch(/resume #\d+ of #\d+: GAP/);
      expect(cli.stderr()).toMatch(/counted .*viewRefused 3/);
    } finally {
      await close();
    }
  });
});
