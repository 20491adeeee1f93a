import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { isStale } from '../../demo/launch/freshness';
import { ROOT } from './support/extension-build';

// `mcp-stream-lens/guard` as a user gets it: the package's `exports` entry, resolved by plain
// node and by tsc (a package may import itself by name, so no install is needed), from the build
// `npm run build:guard` makes (vite for the code, dts-bundle-generator for the types). About 40 s
// when it has to build, 10 s when dist/guard is fresh.

const run = promisify(execFile);
const DIST = join(ROOT, 'dist/guard/index.js');
const CONSUMER_DIR = join(ROOT, 'test-results', 'guard-consumer');

beforeAll(async () => {
  if (await isStale(DIST, [join(ROOT, 'src/guard'), join(ROOT, 'src/core'), join(ROOT, 'vite.guard.config.ts')])) {
    await run('npm', ['run', 'build:guard'], { cwd: ROOT, timeout: 120_000 });
  }
}, 130_000);

/** An app's code: guarded client and transport, the typed error, and a policy that does not exist. */
const CONSUMER = `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { guardClient, guardTransport, ResumptionBoundaryError } from 'mcp-stream-lens/guard';

export async function main(url: URL): Promise<string> {
  const client = guardClient(new Client({ name: 'consumer', version: '1.0.0' }));
  const transport = guardTransport(new StreamableHTTPClientTransport(url), { policy: 'reissue', maxReissues: 1 });
  // @ts-expect-error: not a policy
  guardTransport(new StreamableHTTPClientTransport(url), { policy: 'retry' });
  await client.connect(transport);
  const refused: number = transport.guard.stats().refused;
  const session: string | undefined = transport.sessionId;
  try {
    await client.callTool({ name: 'long_task', arguments: {} });
  } catch (error) {
    if (error instanceof ResumptionBoundaryError) return error.finding.code + String(error.expected) + error.stream.url + error.code.toFixed(0);
  }
  return String(refused) + String(session);
}
`;

describe('the mcp-stream-lens/guard package entry', () => {
  it('node resolves it, with the app\'s own SDK (ResumptionBoundaryError extends its McpError)', async () => {
    const script = `const guard = await import('mcp-stream-lens/guard');
const { McpError } = await import('@modelcontextprotocol/sdk/types.js');
console.log(JSON.stringify({ names: Object.keys(guard).sort(), extendsSdk: Object.getPrototypeOf(guard.ResumptionBoundaryError) === McpError }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({ names: ['RESUMPTION_BOUNDARY_CODE', 'ResumptionBoundaryError', 'guardClient', 'guardTransport'], extendsSdk: true });
  });

  it('tsc (nodenext) types an app against it: the options are checked, the guard and the error are typed', async () => {
    await mkdir(CONSUMER_DIR, { recursive: true });
    const file = join(CONSUMER_DIR, 'consumer.ts');
    await writeFile(file, CONSUMER);
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023,dom', '--types', 'node'];
    // Exit 0 also proves the @ts-expect-error was needed: the options are not `any`.
    const result = await run(process.execPath, [tsc, ...flags, file], { cwd: ROOT }).then(() => 'ok', (failed: { stdout: string }) => failed.stdout);
    expect(result).toBe('ok');
  }, 60_000);
});
