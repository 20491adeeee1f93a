import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame } from 'puppeteer-core';
import type { Report } from '../../src/core/index.js';

/** How long one export download may take. */
export const EXPORT_DEADLINE_MS = 15_000;

/**
 * Clicks the panel's own export buttons and keeps what it downloads: `capture.har` (every MCP
 * session, "Export all sessions HAR") and `report.json` (the report the panel computed from its
 * live capture). Downloads are caught through CDP's browser-wide download events.
 */
export async function exportFromPanel(browser: Browser, panel: Frame, outDir: string): Promise<Report> {
  const downloads = await mkdtemp(join(tmpdir(), 'mcp-lens-downloads-'));
  const cdp = await browser.target().createCDPSession();
  try {
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', downloadPath: downloads, eventsEnabled: true });
    const save = async (testId: string, name: string): Promise<string> => {
      const finished = new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the panel's ${testId} download did not finish`)), EXPORT_DEADLINE_MS);
        const onProgress = (event: { guid: string; state: string }) => {
          if (event.state === 'inProgress') return;
          clearTimeout(timer);
          cdp.off('Browser.downloadProgress', onProgress);
          if (event.state === 'completed') resolve(event.guid);
          else reject(new Error(`the panel's ${testId} download was ${event.state}`));
        };
        cdp.on('Browser.downloadProgress', onProgress);
      });
      await panel.click(`[data-testid="${testId}"]`);
      // allowAndName saves each download under its guid; give it its real name.
      const target = join(outDir, name);
      await rename(join(downloads, await finished), target);
      return target;
    };
    await save('export-capture', 'capture.har');
    const report = await save('export-report', 'report.json');
    return JSON.parse(await readFile(report, 'utf8')) as Report;
  } finally {
    await cdp.detach().catch(() => undefined);
    await rm(downloads, { recursive: true, force: true });
  }
}
