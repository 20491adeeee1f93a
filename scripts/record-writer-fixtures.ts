/**
 * Records HAR fixtures with the real HAR writers, against MCP servers other than the official
 * SDK's transport (and the SDK's, for comparison), through the demo's draining load balancer.
 *
 *   npm run record-writer-fixtures                        -> test/fixtures/har/writers/*.har
 *   npm run record-writer-fixtures -- --out DIR
 *   npm run record-writer-fixtures -- --only playwright --only firefox
 *   npm run record-writer-fixtures -- --server hono --scenario genuine
 *
 * test/fixtures/har/writers/README.md says what each writer records, and how each file was made.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ServerKind } from '../demo/server/replicas.js';
import { recordWithChromeHar } from './writers/chrome-har.js';
import { recordWithDevtools } from './writers/devtools.js';
import { recordWithFirefox } from './writers/firefox.js';
import { mitmproxyMissing, recordWithMitmproxy } from './writers/mitmproxy.js';
import { recordWithPlaywright } from './writers/playwright.js';
import { startRecordingSite, REVISION, type RecordingSite, type WriterScenario } from './writers/site.js';

type Writer = 'devtools' | 'playwright' | 'chrome-har' | 'firefox' | 'mitmproxy';
const WRITERS: readonly Writer[] = ['devtools', 'playwright', 'chrome-har', 'firefox', 'mitmproxy'];

/** Each writer, given the running site, writes `file` and says what the client believed. */
const RECORD: Record<Writer, (site: RecordingSite, file: string, server: ServerKind) => Promise<string>> = {
  devtools: async (site, file) => (await recordWithDevtools(site, file), site.belief()),
  playwright: async (site, file) => (await recordWithPlaywright(site, file), site.belief()),
  'chrome-har': async (site, file) => (await recordWithChromeHar(site, file), site.belief()),
  firefox: async (site, file) => (await recordWithFirefox(site, file), site.belief()),
  mitmproxy: (site, file, server) => recordWithMitmproxy(site, file, REVISION[server]),
};

/**
 * What is recorded. Hono (on the SDK's McpServer) and mcp-lite are the two servers besides the
 * SDK's transport; every writer records Hono's genuine resume, the browsers' writers also its
 * lost buffer and mcp-lite's replay of the standalone GET, and Playwright the SDK's genuine resume.
 */
const PLAN: readonly [Writer, ServerKind, WriterScenario][] = [
  ['devtools', 'hono', 'genuine'],
  ['devtools', 'hono', 'lost-buffer'],
  ['devtools', 'mcp-lite', 'genuine'],
  ['playwright', 'hono', 'genuine'],
  ['playwright', 'hono', 'lost-buffer'],
  ['playwright', 'mcp-lite', 'genuine'],
  ['playwright', 'sdk', 'genuine'],
  ['chrome-har', 'hono', 'genuine'],
  ['chrome-har', 'hono', 'lost-buffer'],
  ['chrome-har', 'mcp-lite', 'genuine'],
  ['firefox', 'hono', 'genuine'],
  ['firefox', 'hono', 'lost-buffer'],
  ['firefox', 'mcp-lite', 'genuine'],
  ['mitmproxy', 'hono', 'genuine'],
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, only: { type: 'string', multiple: true }, server: { type: 'string', multiple: true }, scenario: { type: 'string', multiple: true } },
  });
  const outDir = values.out ?? 'test/fixtures/har/writers';
  const chosen = values.only ?? WRITERS;
  const unknown = chosen.filter((w) => !WRITERS.includes(w as Writer));
  if (unknown.length > 0) throw new Error(`unknown writer(s): ${unknown.join(', ')}; known: ${WRITERS.join(', ')}`);
  await mkdir(outDir, { recursive: true });
  const missing = mitmproxyMissing();
  // One at a time: each recording has its own servers, load balancer and browser.
  const plan = PLAN.filter(([writer, server, scenario]) => chosen.includes(writer) && (values.server ?? [server]).includes(server) && (values.scenario ?? [scenario]).includes(scenario));
  if (plan.length === 0) throw new Error('nothing to record: no planned recording matches --only, --server and --scenario');
  for (const [writer, server, scenario] of plan) {
    if (writer === 'mitmproxy' && missing) {
      console.log(`[${writer}] skipped: ${missing}`);
      continue;
    }
    const file = join(outDir, `${writer}-${server}-${scenario}.har`);
    const site = await startRecordingSite(server, scenario);
    try {
      const belief = await RECORD[writer](site, file, server);
      console.log(`[${writer} ${server} ${scenario}] wrote ${file}; the client believed: ${belief}`);
    } finally {
      await site.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
