import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, openPanel } from './support/chromium';
import { waitForPanel } from './support/panel-queries';
import { useExtensionBrowser } from './support/extension-session';
import type { Site } from './support/site';

/** One request the browser's network stack started, as its net log records it. */
interface LoggedRequest {
  url: string;
  method: string;
  /** The origin that caused it; "not an origin" for the browser's own requests and navigations. */
  initiator: string;
  /** The network isolation key and site-for-cookies: an extension's request is keyed to its origin. */
  keys: string;
  /** The request's traffic annotation: which part of Chromium made it. */
  annotation: number | undefined;
}

/** The traffic annotation of requests made by a document or worker (a page's, or an extension's). */
const BLINK_RESOURCE_LOADER = 101845102;

interface NetLog {
  constants: { logEventTypes: Record<string, number> };
  events: { type: number; source: { id: number }; params?: Record<string, unknown> }[];
}

/**
 * Reads Chromium's net log (`--log-net-log`): every URL request the network stack started. The
 * file is complete once the browser has exited; one that died writes no closing brackets, which
 * are added back.
 */
function readNetLog(file: string): LoggedRequest[] {
  const text = readFileSync(file, 'utf8').trim();
  let log: NetLog;
  try {
    log = JSON.parse(text) as NetLog;
  } catch {
    log = JSON.parse(`${text.replace(/,\s*$/, '')}]}`) as NetLog;
  }
  const type = log.constants.logEventTypes;
  const annotations = new Map<number, number>();
  for (const e of log.events) if (e.type === type.REQUEST_ALIVE && typeof e.params?.traffic_annotation === 'number') annotations.set(e.source.id, e.params.traffic_annotation);
  return log.events
    // The job's begin event carries its parameters; its end event carries none.
    .filter((e) => e.type === type.URL_REQUEST_START_JOB && typeof e.params?.url === 'string')
    .map((e) => {
      const p = e.params ?? {};
      return { url: String(p.url), method: String(p.method), initiator: String(p.initiator), keys: `${String(p.network_isolation_key)} ${String(p.site_for_cookies)}`, annotation: annotations.get(e.source.id) };
    });
}

// Real Chromium with the extension, the panel open during a real MCP capture; the browser's own
// net log records every request. The extension must add none: no telemetry, no fetch of its own.
describe('Chromium: the extension makes no network request of its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'msl-netlog-'));
  const netLog = join(dir, 'net-log.json');
  let site: Site;
  let chromium: Awaited<ReturnType<typeof launchChromium>>;
  let closed: Promise<void> | undefined;
  useExtensionBrowser(
    'chrome',
    async (extensionDir) => {
      const launched = await launchChromium(extensionDir, { args: [`--log-net-log=${netLog}`, '--net-log-capture-mode=Default'] });
      // The test closes the browser itself (the log is complete only then); closing is idempotent.
      return { ...launched, close: () => (closed ??= launched.close()) };
    },
    (s, b) => {
      site = s;
      chromium = b;
    },
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no request comes from the extension during a capture with the panel open; every script-made one is the page\'s, to the test server', async () => {
    const page = await chromium.browser.newPage();
    const { panel } = await openPanel(page);
    await page.goto(`${site.origin}/?steps=3&delay=10`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), { polling: 100, timeout: 60_000 });
    await waitForPanel(panel, `(s) => s.sessions === 1 && s.streams.some((x) => x.method === 'POST' && x.events >= 5)`);
    const mcp = site.mcpRequests.length;
    await chromium.close();

    const requests = readNetLog(netLog);
    const toSite = requests.filter((r) => r.url.startsWith(`${site.origin}/`));
    const elsewhere = requests.filter((r) => !r.url.startsWith(`${site.origin}/`));
    // The net log really recorded this capture: the page itself and each of its MCP requests.
    expect(toSite.some((r) => r.url === `${site.origin}/?steps=3&delay=10` && r.method === 'GET')).toBe(true);
    expect(toSite.filter((r) => new URL(r.url).pathname === '/mcp')).toHaveLength(mcp);

    // Nothing was initiated by, or keyed to, an extension origin (the service worker, the devtools
    // page, the panel and the content scripts' extension world would all show up as one).
    expect(requests.filter((r) => `${r.initiator} ${r.keys}`.includes('chrome-extension://'))).toEqual([]);
    // Whatever a document or worker fetched was the page's own, to the test server.
    const byScripts = requests.filter((r) => r.annotation === BLINK_RESOURCE_LOADER || r.initiator !== 'not an origin');
    expect(byScripts.filter((r) => r.initiator !== site.origin || !r.url.startsWith(`${site.origin}/`))).toEqual([]);
    // The rest is Chromium's own background services (time, component updates, account checks),
    // which CHROMIUM_FLAGS do not silence: no initiator, no script, never keyed to a page or extension.
    expect(elsewhere.filter((r) => r.initiator !== 'not an origin' || r.annotation === BLINK_RESOURCE_LOADER)).toEqual([]);
    const services = [...new Set(elsewhere.map((r) => new URL(r.url).host))];
    console.log(
      `net log: ${requests.length} requests; ${toSite.length} by the page to the test server (${mcp} MCP, ${byScripts.length} by its scripts); ` +
        `0 by the extension; ${elsewhere.length} by Chromium's own services (${services.join(', ') || 'none'})`,
    );
  });
});
