import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExtension } from './support/extension-build';
import { inPage, launchFirefox } from './support/firefox';
import { waitForPanel } from './support/panel-queries';
import { startWorkerSite, type WorkerSite } from './support/worker-site';

// Issue 21 (2): in Firefox, the real SDK client in a dedicated Worker (invisible to the page tap),
// against the real SDK server behind the demo's load balancer. The toolbox's network monitor
// reports each request at its end, with its body but no reset: each stream's end is `unknown`
// unless its body stops inside an event, and no verdict claims an error it cannot see.
describe('Firefox: a Worker\'s MCP streams, from the network monitor', () => {
  let firefox: Awaited<ReturnType<typeof launchFirefox>>;
  let site: WorkerSite;
  beforeAll(async () => {
    const [dir, started] = await Promise.all([buildExtension('firefox'), startWorkerSite(['genuine', 'lost-buffer'])]);
    site = started;
    firefox = await launchFirefox(dir);
  });
  afterAll(async () => {
    await firefox?.close();
    await site?.close();
  });

  it.each(['genuine', 'lost-buffer'])('%s: every stream listed, none of them a false "complete" or a false error', async (scenario) => {
    const { page } = firefox;
    await page.goto(`${site.origin}/`);
    await page.evaluate((s: string) => (window as unknown as { runWorker(s: string, n: number, d: number): void }).runWorker(s, 10, 50), scenario);
    await page.waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done'), { polling: 100, timeout: 60_000 });
    const viewer = await firefox.openViewer();
    await viewer.waitForSelector('[data-testid="tab-choice"]', { timeout: 30_000 });
    await viewer.click('[data-testid="tab-choice"]');
    const state = await waitForPanel(inPage(viewer), `(s) => s.streams.some((x) => x.method === 'GET' && x.lastEventId !== '')`, 30_000);
    console.log(`[firefox worker, ${scenario}] ${state.streams.map((x) => `${x.source} ${x.method} ${x.end} ${x.events}`).join('; ')}; findings ${state.findings.map((f) => `${f.severity} ${f.code}`).join(', ')}`);
    expect(state.streams.every((x) => x.source === 'network')).toBe(true);
    // Firefox marks no reset: an end is unknown, or a reset read from a body cut inside an event.
    expect(state.streams.filter((x) => x.end === 'complete')).toEqual([]);
    expect(state.streams.every((x) => x.end === 'unknown' || x.end === 'reset')).toBe(true);
    const errors = state.findings.filter((f) => f.severity === 'error').map((f) => f.code);
    // The lost buffer's invented replay is in the body Firefox kept, so it is still caught; the genuine resume has no error.
    expect(errors).toEqual(scenario === 'genuine' ? [] : expect.arrayContaining(['resume-seq-gap']));
    await viewer.close();
  });
});
