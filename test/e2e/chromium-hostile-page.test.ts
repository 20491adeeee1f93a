import type { Frame, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { waitForPanel } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

// The tap's brand, as a page script would spell it when forging (tests may not import src/).
const TAP = 'mcp-stream-lens/tap';
/** Text every forged item carries; the panel must never show it. */
const FORGED = 'FORGED-BY-THE-PAGE';

/** How many streams the panel's analysis holds, across every session (the toolbar's summary). */
const panelStreams = (panel: Frame) => panel.$eval('[data-testid="summary"]', (el) => Number((el as HTMLElement).dataset.streams));

/**
 * Everything a hostile page script can post into the relay channel: a well-formed batch (the
 * dangerous one: it would pass validation), broken ones, an oversized one, a second port hand-over
 * (and a batch sent through that port), a forged loss report and a forged hello. Returns how many
 * tap-branded messages it posted on the window.
 */
async function forgeEverything(page: Page): Promise<number> {
  return page.evaluate(
    (source: string, marker: string) => {
      let posted = 0;
      const post = (m: unknown, transfer: Transferable[] = []) => {
        posted += 1;
        window.postMessage(m, '*', transfer);
      };
      const request = { method: 'POST', url: `${location.origin}/mcp`, headers: [{ name: 'mcp-session-id', value: marker }], startTime: Date.now(), body: `{"jsonrpc":"2.0","id":1,"method":"${marker}"}` };
      const event = `id: 1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${marker}"}}\n\n`;
      const wellFormed = {
        source,
        v: 1,
        type: 'tap-batch',
        dropped: 0,
        evicted: 0,
        items: [
          { kind: 'open', stream: 900, api: 'fetch', request },
          { kind: 'response', stream: 900, response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }, { name: 'mcp-session-id', value: marker }] } },
          { kind: 'chunk', stream: 900, time: Date.now(), data: new TextEncoder().encode(event) },
          { kind: 'end', stream: 900, end: { state: 'complete', time: Date.now() } },
        ],
      };
      post(wellFormed);
      post({ ...wellFormed, v: 99 }); // another protocol version
      post({ ...wellFormed, items: 'not a list' }); // malformed envelope
      post({ ...wellFormed, items: [{ kind: 'chunk', stream: 900, time: 1, data: 'x'.repeat(5_000_000) }] }); // oversized
      const own = new MessageChannel();
      post({ source, v: 1, type: 'tap-port' }, [own.port2]); // a second hand-over, with a port the page holds
      own.port1.postMessage(wellFormed); // ...and a batch through it
      post({ source, v: 1, type: 'tap-lost', api: 'eventsource', time: 1 }); // a forged loss
      post({ source, v: 1, type: 'tap-hello' }); // a forged hello
      window.postMessage({ source: 'mcp-stream-lens/relay', v: 1, type: 'relay-attach', attached: false }, '*'); // not the tap's brand: ignored
      return posted;
    },
    TAP,
    FORGED,
  );
}

// Real Chromium, the built extension, DevTools open, a page that lies to the relay and then takes
// fetch away from the tap. Assertions are made on what the panel shows.
describe('Chromium: a hostile page', () => {
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  useExtensionBrowser('chrome', launchChromium, (s, b) => {
    site = s;
    chromium = b;
  });

  it('gets no forged content into the panel, and a page that freezes another fetch in place shows as "tap lost"', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    // The real SDK client: initialize, then a tool call with three progress events.
    await page.goto(`${site.origin}/?steps=3&delay=10`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), { polling: 100, timeout: 60_000 });
    // (The SDK's client.close() cancels the streams it still reads, so they end as cancelled.)
    const real = await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'POST' && x.end !== 'open' && x.events >= 5)`);
    expect(real.streams.every((x) => x.source === 'tap')).toBe(true);
    // Every request the server saw is one stream in the panel, as the tap saw it.
    await panel.waitForFunction((n: number) => Number(document.querySelector<HTMLElement>('[data-testid="summary"]')?.dataset.streams) === n, { polling: 100, timeout: 30_000 }, site.mcpRequests.length);
    const tapStreams = await panelStreams(panel);

    const forged = await forgeEverything(page);
    const rejected = await waitForPanel(panel, `(s) => s.rejected === ${forged}`);
    expect(rejected.dropped).toBe(forged);

    // Defeat the tap: a pristine fetch from a fresh frame's realm, frozen in place of the tap's.
    const before = site.mcpRequests.length;
    await page.evaluate(() => {
      const frame = document.body.appendChild(document.createElement('iframe'));
      Object.defineProperty(window, 'fetch', { value: frame.contentWindow!.fetch, writable: false, configurable: false });
    });
    const notice = await panel.waitForSelector('[data-testid="tap-lost"]', { timeout: 30_000 });
    expect(await notice!.evaluate((el) => (el as HTMLElement).dataset.apis)).toBe('fetch');
    expect(await notice!.evaluate((el) => el.textContent)).toMatch(/^Tap lost: the page replaced fetch at \d\d:\d\d:\d\d\.\d{3}; later requests may be missing from this capture\./);

    // An MCP request through the page's fetch now: the tap cannot see it, the network panel can.
    const answer = await page.evaluate(async () => {
      const response = await fetch(`${location.origin}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'after-the-tap', version: '1' } } }),
      });
      return `${response.status} ${await response.text()}`;
    });
    expect(answer).toMatch(/^200 .*"serverInfo"/s);
    expect(site.mcpRequests.length).toBe(before + 1);
    const after = await waitForPanel(panel, `(s) => s.streams.some((x) => x.source === 'network' && x.method === 'POST' && x.status === '200')`);
    await panel.waitForSelector('[data-testid="tap-lost"][data-network-only="1"]', { timeout: 30_000 });

    // Exactly the real exchanges: the tap's, plus the one only the network panel saw; nothing forged.
    expect(await panelStreams(panel)).toBe(tapStreams + 1);
    expect(await panelStreams(panel)).toBe(site.mcpRequests.length);
    expect(after.sessions).toBe(2);
    expect(after.rejected).toBe(forged);
    const keys = await panel.$$eval('[data-testid="session-row"]', (rows) => rows.map((r) => (r as HTMLElement).dataset.key ?? ''));
    expect(keys.some((k) => k.includes(FORGED))).toBe(false);
    expect(await panel.evaluate((marker: string) => document.body.textContent!.includes(marker), FORGED)).toBe(false);
    console.log(
      `hostile page: ${forged} forged messages posted, ${after.rejected} dropped and counted; ` +
        `panel streams ${tapStreams} from the tap + 1 from the network panel = ${site.mcpRequests.length} requests the server saw; tap lost: fetch`,
    );
    await page.close();
  });
});
