import { writeFile } from 'node:fs/promises';
import { harFromMessages } from 'chrome-har';
import { launchChromium } from '../../test/e2e/support/chromium.js';
import { isMcpPath, type RecordingSite } from './site.js';

/** The CDP events chrome-har turns into entries. */
const EVENTS = [
  'Page.frameStartedLoading', 'Page.frameRequestedNavigation', 'Page.navigatedWithinDocument', 'Page.loadEventFired',
  'Page.domContentEventFired', 'Page.frameAttached', 'Network.requestWillBeSent', 'Network.requestServedFromCache',
  'Network.requestWillBeSentExtraInfo', 'Network.responseReceivedExtraInfo', 'Network.responseReceived',
  'Network.dataReceived', 'Network.loadingFinished', 'Network.loadingFailed', 'Network.resourceChangedPriority',
] as const;

/**
 * chrome-har, the HAR writer many tools use, fed the CDP events of Debian's Chromium as they
 * arrive. Bodies are what `Network.getResponseBody` gives at `loadingFinished`, set on the
 * response as chrome-har's README says; chrome-har writes the rest (and drops what it drops).
 * The page's own document and script are left out of the fixture.
 */
export async function recordWithChromeHar(site: RecordingSite, file: string): Promise<void> {
  const { browser, close } = await launchChromium(null);
  try {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    const messages: { method: string; params: Record<string, unknown> }[] = [];
    const responses = new Map<string, { body?: string }>();
    const bodies: Promise<void>[] = [];
    for (const method of EVENTS) {
      cdp.on(method, (event: unknown) => {
        const params = event as Record<string, unknown>;
        messages.push({ method, params });
        const requestId = String(params.requestId);
        if (method === 'Network.responseReceived') responses.set(requestId, params.response as { body?: string });
        if (method === 'Network.loadingFinished') {
          const response = responses.get(requestId);
          bodies.push(cdp.send('Network.getResponseBody', { requestId }).then((b) => {
            if (response) response.body = b.base64Encoded ? Buffer.from(b.body, 'base64').toString('utf8') : b.body;
          }, () => undefined));
        }
      });
    }
    await Promise.all([cdp.send('Page.enable'), cdp.send('Network.enable')]);
    await page.goto(site.pageUrl, { waitUntil: 'load', timeout: 60_000 });
    await Promise.all(bodies);
    const har = harFromMessages(messages, { includeTextFromResponseBody: true });
    har.log.entries = har.log.entries.filter((e: { request: { url: string } }) => isMcpPath(e.request.url));
    await writeFile(file, `${JSON.stringify(har, null, 2)}\n`);
  } finally {
    await close();
  }
}
