import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHar } from '../../src/core';

// Runs the writer recorder for Hono's genuine resume with each browser-side writer (DevTools,
// Playwright, chrome-har, Firefox), into a temp dir, and checks that each writer still records
// a drained SSE stream as the table in test/fixtures/har/writers/README.md says. These are the
// facts the HAR reader rests on; a new browser or writer version that changes one fails here.
// (mitmproxy is left out: it is a Debian package the test set-up does not install.)

/** A parsed HAR, walked freely: the tests change real files the way other writers differ. */
type Json = Record<string, any>;
let dir = '';
let stdout = '';
const har = async (writer: string) => JSON.parse(await readFile(join(dir, `${writer}-hono-genuine.har`), 'utf8')) as Json;
const body = (e: Json) => (e.request.postData?.text ?? '') as string;
/** The drained tools/call entry, told by its request (chrome-har keeps the body as params only). */
const toolCall = (h: Json) => h.log.entries.find((e: Json) => body(e).includes('"tools/call"') || e.request.postData?.params?.some((p: Json) => p.value === 'tools/call'));
const resume = (h: Json) => h.log.entries.find((e: Json) => e.request.headers.some((x: Json) => x.name.toLowerCase() === 'last-event-id'));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stream-lens-writers-'));
  const tsx = join('node_modules', 'tsx', 'dist', 'cli.mjs');
  const args = ['scripts/record-writer-fixtures.ts', '--out', dir, '--server', 'hono', '--scenario', 'genuine', ...['devtools', 'playwright', 'chrome-har', 'firefox'].flatMap((w) => ['--only', w])];
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, [tsx, ...args], { timeout: 110_000 }));
  } catch (error) {
    // What it printed says which writer it was on: each one's run is printed as it ends.
    const { stdout: out = '', stderr: err = '', killed } = error as { stdout?: string; stderr?: string; killed?: boolean };
    throw new Error(`recording the writers failed${killed ? ' (stopped at its timeout)' : ''}:\n${out}\n${err}`);
  }
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the real HAR writers, on a drained SSE stream', () => {
  it('recorded one genuine run per writer, and the client got its result each time', () => {
    expect(stdout.match(/the client believed: result \{"app_seq":13\}/g)).toHaveLength(4);
  });

  it('Chrome DevTools: the reset keeps status 200 and `_error`; events it listed are `{ time, eventName, eventId, data }`', async () => {
    const h = await har('devtools');
    expect(toolCall(h).response).toMatchObject({ status: 200, _error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' });
    // Not every stream gets its list, nor every event in it (see the fixtures' README).
    const listed = h.log.entries.flatMap((e: Json) => e._eventSourceMessages ?? []);
    for (const m of listed) expect(m).toEqual({ time: expect.any(Number), eventName: 'message', eventId: expect.any(String), data: expect.stringContaining('"jsonrpc":"2.0"') });
  });

  it('Playwright: the reset is `_failureText`, with `size: -1`, no text and `receive: -1`', async () => {
    const call = toolCall(await har('playwright'));
    expect(call.response).toMatchObject({ status: 200, _failureText: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING', content: { size: -1 } });
    expect(call.response.content.text).toBeUndefined();
    expect(call.timings.receive).toBe(-1);
  });

  it('chrome-har: no entry for the reset stream, bodies as `postData.params`, `_chunks` as `{ ts, bytes }`', async () => {
    const h = await har('chrome-har');
    expect(toolCall(h)).toBeUndefined();
    expect(h.log.entries.every((e: Json) => e.request.postData === undefined || (e.request.postData.text === undefined && Array.isArray(e.request.postData.params)))).toBe(true);
    expect(resume(h)._chunks[0]).toEqual({ ts: expect.any(Number), bytes: expect.any(Number) });
  });

  it('Firefox: the reset stream is status 200 with its partial body, and no entry has an error field', async () => {
    const h = await har('firefox');
    expect(JSON.stringify(h)).not.toMatch(/"_error"|"_failureText"/);
    expect(toolCall(h).response.status).toBe(200);
    expect(toolCall(h).response.content.text).toContain('"progress":6');
  });

  it.each(['devtools', 'playwright', 'chrome-har', 'firefox'])('%s: the reader takes every entry, with no problem noted', async (writer) => {
    const result = readHar(JSON.stringify(await har(writer)));
    expect(result).toMatchObject({ ok: true, skippedEntries: 0, problems: [] });
  });
});
