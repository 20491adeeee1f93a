import { it } from 'vitest';
import { launchFirefox } from './support/firefox';
import { startWorkerSite } from './support/worker-site';

it('exp', async () => {
  const site = await startWorkerSite(['genuine']);
  const ff = await launchFirefox('/tmp/ffx/ext');
  const page = ff.page;
  await page.goto(site.origin + '/');
  await page.evaluate(() => fetch('/s/genuine/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":9,"method":"ping"}', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }).catch(() => 0));
  await page.evaluate(() => (window as any).runWorker('genuine', 5, 100));
  await page.waitForFunction(() => (document.getElementById('status')?.textContent ?? '').startsWith('done'), { polling: 100, timeout: 60_000 });
  console.log(await page.evaluate(() => document.getElementById('status')!.textContent));
  console.log('opening'); const viewer = await ff.openViewer(); console.log('opened');
  const log = await viewer.evaluate(() => (globalThis as any).browser.runtime.sendMessage('x'));
  for (const l of log) console.log(JSON.stringify(l));
  await ff.close(); await site.close();
}, 60_000);
