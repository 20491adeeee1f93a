import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { DemoOptions } from './args.js';
import { findBrowser } from './browsers.js';
import { ensureExtension, ensurePage } from './builds.js';
import { summarize } from './capture-files.js';
import { launchChromium } from './chromium.js';
import { runHeadless } from './headless.js';
import type { Lifecycle } from './lifecycle.js';
import { startSite } from './site.js';

/**
 * `npm run demo -- --headless --scenario NAME --out DIR`: the chosen scenarios, one after the
 * other, in one headless Chromium with the extension and one site (servers start once). Returns
 * the exit code: 0 once every scenario completed and its files are written.
 */
export async function headlessDemo(options: DemoOptions & { out: string }, lifecycle: Lifecycle, log: (line: string) => void): Promise<number> {
  const extensionDir = await ensureExtension('chrome', lifecycle, log);
  await ensurePage(log);
  const executablePath = await findBrowser('chromium', lifecycle, log);
  const site = await startSite({ port: options.port, scenarios: options.scenarios });
  lifecycle.defer(() => site.close());
  const browser = await launchChromium({ executablePath, extensionDir, headless: true }, lifecycle);

  for (const scenario of options.scenarios) {
    const outDir = options.scenarios.length === 1 ? options.out : join(options.out, scenario);
    const started = performance.now();
    const run = await runHeadless(browser, site, scenario, outDir);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const belief = run.client.text.replace(/\s+/g, ' ').slice(0, 160);
    console.log(`[${scenario}] client believed (${run.client.state}): ${belief}`);
    for (const line of summarize(run.report)) console.log(`  report: ${line}`);
    console.log(`  panel: ${run.panel.streams} streams, findings: ${run.panel.findings.join(', ') || 'none'}${run.panel.note ? ` (${run.panel.note})` : ''}`);
    console.log(`  wrote ${outDir}/{capture.har,report.json,panel.png,client.json,panel-view.json} in ${seconds} s`);
  }
  return 0;
}
