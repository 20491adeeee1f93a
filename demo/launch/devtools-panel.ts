import type { Frame, Page } from 'puppeteer-core';

/** The panel's title, as the extension's devtools page creates it. */
export const PANEL_TITLE = 'MCP Streams';
/** How long DevTools may take to register the panel and load it. */
export const PANEL_DEADLINE_MS = 20_000;
/**
 * How often DevTools' state is looked at while waiting. An interval, not puppeteer's default
 * (animation frames): a DevTools window that is not in front may get no frames for a long time.
 */
export const POLL_MS = 50;

/** DevTools' own UI module, loaded once into the DevTools page as `globalThis.__lensUI`. */
interface DevToolsUi {
  InspectorView: { InspectorView: { instance(): { tabbedPane: { tabIds(): string[] }; showPanel(id: string): Promise<void> } } };
  DockController: { DockController: { instance(): { setDockSide(side: string): void } } };
}
type WithUi = typeof globalThis & { __lensUI: DevToolsUi };

/**
 * Selects the MCP Streams panel in a Chromium DevTools page and returns the panel's frame once
 * it has loaded. DevTools registers extension panels as tabs with the id `<origin><title>`
 * (spaces dropped); it has no public API for this, so we use its UI module, as its own tests do.
 */
export async function selectPanel(devtools: Page): Promise<Frame> {
  // DevTools loads extensions' devtools pages once it has booted; touching its UI before that
  // breaks it ("No locale data registered"). So that frame is the ready signal.
  await devtools.waitForFrame((frame) => frame.url().includes('/src/entries/devtools.html'), { timeout: PANEL_DEADLINE_MS });
  // A relative import would resolve against puppeteer's script URL, not DevTools' own.
  await devtools.evaluate(async () => {
    (globalThis as WithUi).__lensUI = await import(new URL('./ui/legacy/legacy.js', location.href).href);
  });
  const suffix = PANEL_TITLE.replace(/\s/g, '');
  await devtools.waitForFunction(
    (end: string) => (globalThis as WithUi).__lensUI.InspectorView.InspectorView.instance().tabbedPane.tabIds().some((id) => id.endsWith(end)),
    { timeout: PANEL_DEADLINE_MS, polling: POLL_MS },
    suffix,
  );
  const loaded = devtools.waitForFrame((frame) => frame.url().includes('/src/entries/panel.html'), { timeout: PANEL_DEADLINE_MS });
  await devtools.evaluate(async (end: string) => {
    const view = (globalThis as WithUi).__lensUI.InspectorView.InspectorView.instance();
    await view.showPanel(view.tabbedPane.tabIds().find((id) => id.endsWith(end))!);
  }, suffix);
  const frame = await loaded;
  await frame.waitForSelector('main', { timeout: PANEL_DEADLINE_MS });
  return frame;
}

/** Gives DevTools a window of its own, so a screenshot of it is all panel. */
export async function undock(devtools: Page): Promise<void> {
  await devtools.evaluate(() => (globalThis as WithUi).__lensUI.DockController.DockController.instance().setDockSide('undocked'));
}
