import { writeFile } from 'node:fs/promises';
import { launchChromium } from '../../test/e2e/support/chromium.js';
import { isMcpPath, type RecordingSite } from './site.js';

// Text, not a function: it runs inside the DevTools frontend, whose modules it imports.
const WRITE_HAR = `(async () => {
  const [HAR, Logs] = await Promise.all([import('./models/har/har.js'), import('./models/logs/logs.js')]);
  const requests = Logs.NetworkLog.NetworkLog.instance().requests();
  // A progress sink nobody reads (the frontend's UI would draw a bar from it).
  const progress = { canceled: false, createSubProgress() { return progress; } };
  return HAR.Writer.Writer.harStringForRequests(requests, { sanitize: false }, progress);
})()`;
/** True once the frontend's network log holds a request for `path` (it records from then on). */
const SEEN = (path: string) => `import('./models/logs/logs.js').then((L) => L.NetworkLog.NetworkLog.instance().requests().some((r) => r.url().endsWith(${JSON.stringify(path)}))).catch(() => false)`;
/**
 * "Preserve log": the log survives the navigation from the probe to the page. The frontend
 * throws until its settings exist, so this is polled until it succeeds.
 */
const PRESERVE_LOG = `import('./core/common/common.js').then((C) => (C.Settings.Settings.instance().moduleSetting('network-log.preserve-log').set(true), true)).catch(() => false)`;
/**
 * The frontend's page target, with its Network domain enabled. Chromium 150's frontend (opened
 * on a tab target) no longer enables Network until the Network panel is shown, so its log stays
 * empty; enabling it on the page's frame target is what showing the panel would do. Polled until
 * that target exists.
 */
const ENABLE_NETWORK = `import('./core/sdk/sdk.js').then((S) => { const t = S.TargetManager.TargetManager.instance().targets().find((t) => t.type() === 'frame'); return t ? t.networkAgent().invoke_enable({}).then(() => true) : false; }).catch(() => false)`;

/**
 * Chrome DevTools' own HAR writer, the one behind "Save all as HAR": DevTools is opened on the
 * page before it loads, and once the page has loaded (the run is over) the frontend's HAR
 * writer serializes its network log, bodies included.
 */
export async function recordWithDevtools(site: RecordingSite, file: string): Promise<void> {
  const { browser, close } = await launchChromium(null);
  try {
    const page = await browser.newPage();
    const devtools = await page.openDevTools();
    // The frontend attaches to the page asynchronously: it records once it has seen a probe.
    await devtools.waitForFunction(PRESERVE_LOG, { polling: 100, timeout: 30_000 });
    await devtools.waitForFunction(ENABLE_NETWORK, { polling: 100, timeout: 30_000 });
    const probe = `${new URL(site.pageUrl).origin}/ready`;
    await page.goto(probe);
    await devtools.waitForFunction(SEEN('/ready'), { polling: 100, timeout: 30_000 });
    await page.goto(site.pageUrl, { waitUntil: 'load', timeout: 60_000 });
    const { log } = JSON.parse(String(await devtools.evaluate(WRITE_HAR))) as { log: { entries: { request: { url: string } }[] } };
    log.entries = log.entries.filter((e) => isMcpPath(e.request.url));
    await writeFile(file, `${JSON.stringify({ log }, null, 2)}\n`);
  } finally {
    await close();
  }
}
