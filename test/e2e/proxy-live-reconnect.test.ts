import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runLongTask } from '../../demo/client/long-task-client.js';
import { openLiveView } from './support/proxy-live-view';
import { readPanel, waitForPanel } from './support/panel-queries';

// The live view's feed cut server-side mid-run, as a network fault cuts it: `ss -K` destroys the
// view server's end of every established connection (the kernel resets the page's end). The page
// must say it is reconnecting, reconnect by itself, and go on where it stopped: the built CLI
// (npm run build:cli, build:shell), the demo's balancer with real SDK servers, real Chromium.

/** Streams as `METHOD events` lines, sorted: what the panel shows against what the proxy reports. */
const shape = (streams: { method: string; events: number }[]) => streams.map((s) => `${s.method} ${s.events}`).sort();

describe('mcp-stream-lens proxy: the live view reconnects', () => {
  it('after its feed connection is reset mid-run, shows a notice, resumes, and shows every later event once', async () => {
    const { lb, cli, url, viewUrl, page, errors, close } = await openLiveView('genuine');
    try {
      // Every state the page goes through from here, with the notice it shows.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { liveStates: string[] }).liveStates = seen;
        new MutationObserver(() => seen.push(`${document.body.dataset.live}: ${document.getElementById('replay-status')!.textContent}`)).observe(document.body, { attributes: true, attributeFilter: ['data-live'] });
      });

      const call = runLongTask(url, { steps: 12, delayMs: 600, idempotencyKey: 'live-reconnect' });
      const before = await waitForPanel(page.mainFrame(), `(s) => s.streams.some((r) => r.method === 'POST' && r.end === 'open' && r.events >= 2)`);
      const eventsBefore = before.streams.reduce((n, s) => n + s.events, 0);
      const killed = execFileSync('ss', ['-K', 'state', 'established', 'sport', '=', `:${new URL(viewUrl).port}`], { encoding: 'utf8' });
      expect(killed).toMatch(/127\.0\.0\.1/); // at least the feed's connection was destroyed

      await page.waitForFunction(() => {
        const seen = (window as unknown as { liveStates: string[] }).liveStates;
        return seen.some((s) => s.startsWith('reconnecting')) && seen.at(-1)!.startsWith('live');
      }, { timeout: 30_000 });
      const states = await page.evaluate(() => (window as unknown as { liveStates: string[] }).liveStates);
      expect(states.find((s) => s.startsWith('reconnecting'))).toMatch(/reconnecting: The live feed was cut; reconnecting/);

      const run = await call;
      expect('result' in run.belief).toBe(true);
      await lb.log.settled();
      // Later events arrived over the new connection: the call's whole stream, and its resume.
      const after = await waitForPanel(page.mainFrame(), `(s) => s.streams.some((r) => r.lastEventId !== '' && r.end !== 'open') && s.streams.filter((r) => r.method === 'POST').every((r) => r.end !== 'open')`, 30_000);
      expect(after.streams.reduce((n, s) => n + s.events, 0)).toBeGreaterThan(eventsBefore);

      cli.child.kill('SIGINT');
      expect(await cli.exited).toBe(0);
      await page.waitForSelector('body[data-live="ended"]');
      // Nothing doubled, nothing lost: stream for stream, the events the proxy's own report counts.
      const report = cli.stdout();
      const reported = [...report.matchAll(/^ {2}#\d+ (\w+) \S+ -> [^,]+, (\d+) events?,/gm)].map(([, method, n]) => ({ method: method!, events: Number(n) }));
      const shown = await readPanel(page.mainFrame());
      expect(reported.length).toBeGreaterThan(0);
      expect(shape(shown.streams)).toEqual(shape(reported));
      expect(shown.dropped).toBe(0);
      expect(shown.rejected).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
