import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHar, type Exchange } from '../../src/core';
import { exchange, ORIGIN, rpc, sse } from '../support/fixtures';
import { launchChromium, openPanel } from './support/chromium';
import { buildExtension } from './support/extension-build';
import { waitForImportSettled } from './support/panel-queries';
import { buildShell, serveShell } from './support/shell-server';

/**
 * Issue 7: stream content is written by whoever controls the inspected page or the server, so the
 * panel must show it as text and never run it. Real Chromium loads a HAR whose ids, event names,
 * data, method names, URLs and header values carry script, markup, CSS breakers, an RTL override
 * and a 1 MB string, in the inline shell and in the real extension panel. Each payload tries to
 * `alert(1)` and set `window.__pwned`; no dialog may open, the global must stay unset, and every
 * payload must be readable, literally, in the event detail.
 */
const SCRIPT = '<script>alert(1);window.__pwned=1</script>';
// No double quotes, so that the payloads read the same inside JSON strings as outside.
const IMG = '<img src=x onerror=alert(1);window.__pwned=1>';
const SVG = '<svg/onload=alert(1);window.__pwned=1></svg>';
const JS_URL = 'javascript:alert(1);window.__pwned=1';
const STYLE_END = '</style><style>*{display:none}</style>';
const CSS_BREAK = '}*{display:none}';
const RTL = 'evil\u202Egnp.exe';
const HUGE = 'A'.repeat(1024 * 1024);
const PAYLOADS = { SCRIPT, IMG, SVG, JS_URL, STYLE_END, CSS_BREAK, RTL };

/** How the panel prints text it may not let act: a bidi override becomes a visible code point. */
const shown = (text: string) => text.replace(/\u202E/g, '⟨U+202E⟩');

function hostileCapture(): Exchange[] {
  const session = `sess-${SCRIPT}-${RTL}`;
  return [
    exchange({
      url: `${ORIGIN}/mcp?next=${JS_URL}&q=${IMG}`,
      session,
      body: rpc.call(1),
      headers: [{ name: 'X-Evil', value: IMG }, { name: 'Referer', value: JS_URL }],
      responseHeaders: [{ name: 'X-Style', value: STYLE_END }, { name: 'Link', value: `<${JS_URL}>; rel=preload` }],
      text: sse([
        { id: SCRIPT, data: { jsonrpc: '2.0', method: SCRIPT, params: { img: IMG, svg: SVG, url: JS_URL, css: CSS_BREAK, style: STYLE_END, rtl: RTL } } },
        { id: 'e2', event: IMG, data: rpc.message(JS_URL) },
        { id: RTL, data: `${STYLE_END}${CSS_BREAK}${SCRIPT}` },
        { id: JS_URL, data: rpc.message(`${HUGE}${SCRIPT}`) },
        { id: CSS_BREAK, data: rpc.result(1) },
      ]),
    }),
  ];
}

/** Puppeteer's Page and Frame share these; the panel lives in a page (shell) or a frame (DevTools). */
type Root = Page | Frame;

/** Clicks every event row and returns the event detail's text after each, plus the whole panel's. */
async function readEveryDetail(root: Root): Promise<{ details: string[]; panel: string }> {
  const rows = await root.$$('[data-testid="event-row"] button');
  expect(rows.length).toBe(5);
  const details: string[] = [];
  for (const [i, row] of rows.entries()) {
    // A DOM click: in DevTools the panel frame can be smaller than the list, and what is under
    // test is what the selection renders, not hit-testing.
    await row.evaluate((button) => (button as HTMLElement).click());
    // The row is pressed in the same render that shows its detail.
    await root.waitForFunction((k) => document.querySelectorAll('[data-testid="event-row"] button')[k]?.getAttribute('aria-pressed') === 'true', { timeout: 30_000 }, i);
    const detail = (await root.waitForSelector('[data-testid="event-detail"]'))!;
    const more = await detail.$$('button');
    for (const button of more) {
      if ((await button.evaluate((b) => b.textContent ?? '')).startsWith('Show all')) await button.evaluate((b) => (b as HTMLElement).click());
    }
    if (more.length > 0) await root.waitForFunction(() => ![...document.querySelectorAll('[data-testid="event-detail"] button')].some((b) => b.textContent?.startsWith('Show all')), { timeout: 30_000 });
    details.push(await detail.evaluate((el) => el.textContent ?? ''));
  }
  return { details, panel: await root.evaluate(() => document.body.textContent ?? '') };
}

/** What would show that a payload acted: script and markup elements, live links, a hidden UI. */
async function damage(root: Root) {
  return root.evaluate(() => {
    const app = document.querySelector('main')!;
    return {
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      elements: app.querySelectorAll('script, img, svg, iframe, object, embed, style, link').length,
      javascriptLinks: document.querySelectorAll('[href^="javascript:" i], [src^="javascript:" i]').length,
      hidden: getComputedStyle(app).display === 'none' || app.getBoundingClientRect().height === 0,
      detailHidden: (document.querySelector('[data-testid="event-detail"]')?.getBoundingClientRect().height ?? 0) === 0,
    };
  });
}

function assertInert(result: { details: string[]; panel: string }, harm: Awaited<ReturnType<typeof damage>>, dialogs: string[]) {
  expect(dialogs).toEqual([]);
  expect(harm).toEqual({ pwned: undefined, elements: 0, javascriptLinks: 0, hidden: false, detailHidden: false });
  const all = result.details.join('\n');
  for (const [name, payload] of Object.entries(PAYLOADS)) expect(all.includes(shown(payload)), `${name} shown literally in the detail`).toBe(true);
  expect(all).not.toContain('\u202E');
  // The 1 MB value, after "Show all", is there in full, followed by the script that rode on it.
  expect(result.details[3]).toContain(`${HUGE}${SCRIPT}`);
  // Ids and the method are shown where they belong: the id and method lines of the detail.
  expect(result.details[0]).toContain(`id${SCRIPT}`);
  expect(result.details[0]).toContain(`method${SCRIPT}`);
  expect(result.details[2]).toContain(`id${shown(RTL)}`);
  // The URL and header values, from the stream line and the header tables.
  expect(all).toContain(shown(`/mcp?next=${JS_URL}&q=${IMG}`));
  expect(all).toContain(`X-Evil${IMG}`);
  expect(all).toContain(`X-Style${STYLE_END}`);
  expect(result.panel).toContain(shown(`sess-${SCRIPT}-${RTL}`));
  console.log(`injection: ${Object.keys(PAYLOADS).length} payloads + 1 MB value in ${result.details.length} events, 0 dialogs, window.__pwned unset, 0 live elements`);
}

describe('Chromium: hostile stream content is shown as text, never run', () => {
  let scratch: string;
  let harPath: string;
  let server: Awaited<ReturnType<typeof serveShell>>;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'msl-injection-'));
    harPath = join(scratch, 'hostile.har');
    writeFileSync(harPath, JSON.stringify(writeHar(hostileCapture(), { redact: false })));
    server = await serveShell(await buildShell());
  });
  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('in the inline shell', async () => {
    const chromium = await launchChromium(null);
    try {
      const page = await chromium.browser.newPage();
      await page.setViewport({ width: 1400, height: 900 });
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${server.origin}/shell/index.html?theme=light`);
      await page.waitForSelector('[data-testid="empty-state"]');
      const input = (await page.$('[data-testid="import-har-input"]')) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(harPath);
      await page.waitForSelector('[data-testid="event-row"]', { timeout: 30_000 });
      await waitForImportSettled(page);
      const result = await readEveryDetail(page);
      assertInert(result, await damage(page), dialogs);
      expect(errors).toEqual([]);
      // The control: the dialog watcher does see an alert that really runs.
      await page.evaluate(() => alert('control'));
      expect(dialogs).toEqual(['control']);
    } finally {
      await chromium.close();
    }
  });

  it('in the real extension panel in DevTools', async () => {
    const chromium = await launchChromium(await buildExtension('chrome'));
    try {
      const page = await chromium.browser.newPage();
      await page.goto(`${server.origin}/shell/index.html`);
      const { devtools, panel } = await openPanel(page);
      const dialogs: string[] = [];
      for (const target of [page, devtools]) {
        target.on('dialog', (dialog) => {
          dialogs.push(dialog.message());
          void dialog.dismiss();
        });
      }
      const input = (await panel.waitForSelector('[data-testid="import-har-input"]'))! as ElementHandle<HTMLInputElement>;
      await input.uploadFile(harPath);
      await panel.waitForSelector('[data-testid="event-row"]', { timeout: 30_000 });
      await waitForImportSettled(panel);
      const result = await readEveryDetail(panel);
      assertInert(result, await damage(panel), dialogs);
      expect(await devtools.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    } finally {
      await chromium.close();
    }
  });
});
