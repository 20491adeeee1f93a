// A user's test, as a user writes it: Playwright records a HAR of the page's MCP traffic,
// and mcp-stream-lens/playwright fails the test on its findings. Run by playwright-helper.test.ts
// with node's own test runner; the site, the browser and the HAR path come from the environment.
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { expectHarFindings } from 'mcp-stream-lens/playwright';

test('the long task survives a reconnect', async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH, headless: true, args: JSON.parse(process.env.CHROME_FLAGS ?? '[]') });
  try {
    const context = await browser.newContext({ recordHar: { path: process.env.HAR_PATH, content: 'embed' } });
    const page = await context.newPage();
    await page.goto(process.env.SITE_URL, { waitUntil: 'load', timeout: 60_000 });
    await context.close();
  } finally {
    await browser.close();
  }
  await expectHarFindings(process.env.HAR_PATH);
});
