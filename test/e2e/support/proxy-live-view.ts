import type { Page } from 'puppeteer-core';
import type { LoadBalancer } from '../../../demo/lb/load-balancer.js';
import { DEMO_FAULTS, startScenario, type Scenario } from '../../../demo/lb/scenario.js';
import { launchChromium } from './chromium';
import { proxyUrl, startCli, type CliProcess } from './cli-process';

export interface LiveView {
  lb: LoadBalancer;
  cli: CliProcess;
  /** The proxy's URL for the MCP client. */
  url: string;
  /** The live view's URL, with its token. */
  viewUrl: string;
  /** A Chromium page on the live view, once its feed is live. */
  page: Page;
  /** The page's uncaught errors. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * The start of the live-view tests: the demo's balancer with real SDK servers for `scenario`,
 * the built CLI's proxy in front of it with its live view, and real Chromium on that view
 * (`query` is added to its URL) once the feed is live.
 */
export async function openLiveView(scenario: Scenario, options: { query?: string; viewport?: { width: number; height: number } } = {}): Promise<LiveView> {
  const { lb, close: closeScenario } = await startScenario(scenario, DEMO_FAULTS);
  const cli = startCli(['proxy', '--target', lb.url, '--listen', '127.0.0.1:0', '--view', '127.0.0.1:0']);
  const chromium = await launchChromium(null);
  const close = async () => {
    cli.child.kill('SIGKILL');
    await chromium.close();
    await closeScenario();
  };
  try {
    const url = await proxyUrl(cli);
    const [, viewUrl] = (await cli.waitFor(/live view at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,})/, 'stderr')) as [string, string];
    const page = await chromium.browser.newPage();
    if (options.viewport) await page.setViewport(options.viewport);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${viewUrl}${options.query ?? ''}`);
    await page.waitForSelector('body[data-live="live"]');
    return { lb, cli, url, viewUrl, page, errors, close };
  } catch (error) {
    await close();
    throw error;
  }
}
