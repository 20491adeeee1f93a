import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScenario } from '../../demo/lb/scenario.js';

// Runs the real recorder (real SDK client and servers behind the recording load balancer) once,
// into a temp dir, and checks the structure of the HAR files it wrote. JSON-level checks only:
// the analysis itself belongs to src/core and has its own tests.

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { mimeType: string; text: string } };
  response: { status: number; headers: { name: string; value: string }[]; content: { size: number; mimeType: string; text: string }; bodySize: number; _error?: string };
  cache: object;
  timings: { send: number; wait: number; receive: number };
  _chunks: { t: number; n: number }[];
}
interface SseEvent {
  id?: string;
  message?: { id?: number; method?: string; params?: { _meta?: { app_seq?: number } }; result?: { _meta?: { app_seq?: number } } };
}

let dir = '';
let stdout = '';
const har = async (scenario: string) =>
  JSON.parse(await readFile(join(dir, `sdk-${scenario}.har`), 'utf8')) as { log: { version: string; creator: { name: string }; entries: HarEntry[] } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stream-lens-recorder-'));
  const tsx = join('node_modules', 'tsx', 'dist', 'cli.mjs');
  ({ stdout } = await promisify(execFile)(process.execPath, [tsx, 'scripts/record-fixtures.ts', '--out', dir], { timeout: 60_000 }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const header = (e: HarEntry, side: 'request' | 'response', name: string) => e[side].headers.find((h) => h.name.toLowerCase() === name)?.value;
const isToolCall = (e: HarEntry) => e.request.postData?.text.includes('"tools/call"') ?? false;
const resumes = (entries: HarEntry[]) => entries.filter((e) => e.request.method === 'GET' && header(e, 'request', 'last-event-id'));
const appSeq = (e: SseEvent) => e.message?.params?._meta?.app_seq ?? e.message?.result?._meta?.app_seq;

/** A deliberately tiny SSE split: the SDK and the scripted replicas frame events with LF only. */
function events(text: string): SseEvent[] {
  return text.split('\n\n').filter((f) => f.trim() !== '').map((frame) => {
    const field = (name: string) => frame.split('\n').find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim();
    const data = field('data');
    return { id: field('id'), message: data ? JSON.parse(data) : undefined };
  });
}

/**
 * After a failed resume the app re-issued the call once, on a new session, with the same
 * idempotency key, and that call completed.
 */
function reissued(entries: HarEntry[], resume: HarEntry, requestId: number) {
  const calls = entries.filter(isToolCall);
  expect(calls).toHaveLength(2);
  const [first, retry] = calls as [HarEntry, HarEntry];
  expect(Date.parse(retry.startedDateTime)).toBeGreaterThanOrEqual(Date.parse(resume.startedDateTime));
  expect(header(retry, 'request', 'mcp-session-id')).not.toBe(header(first, 'request', 'mcp-session-id'));
  const key = (e: HarEntry) => JSON.parse(e.request.postData!.text).params.arguments.idempotencyKey as string;
  expect(key(retry)).toBe(key(first));
  expect(JSON.parse(first.request.postData!.text).id).toBe(requestId);
  expect(retry.response._error).toBeUndefined();
  expect(events(retry.response.content.text).at(-1)!.message?.result?._meta?.app_seq).toBe(13);
}

/** The drained tool call: its stream was reset after the priming event and app_seq 1..5. */
function drained(entries: HarEntry[]) {
  const post = entries.find(isToolCall)!;
  expect(post.response.status).toBe(200);
  expect(post.response._error).toBe('net::ERR_INCOMPLETE_CHUNKED_ENCODING');
  const sent = events(post.response.content.text);
  expect(sent[0]?.message).toBeUndefined(); // the SDK's priming event: an id and empty data
  expect(sent.every((e) => e.id !== undefined)).toBe(true);
  expect(sent.slice(1).map(appSeq)).toEqual([1, 2, 3, 4, 5]);
  return { post, lastId: sent.at(-1)!.id!, requestId: JSON.parse(post.request.postData!.text).id as number };
}

describe('record-fixtures', () => {
  it('writes HAR 1.2 entries in start order with chunk timings that add up', async () => {
    for (const scenario of ['genuine', 'lost-buffer', 'rejected', 'expired', 'empty', 'duplicate', 'legacy-sse', 'stateless']) {
      const { log } = await har(scenario);
      expect(log.version).toBe('1.2');
      expect(log.creator.name).toBeTruthy();
      const starts = log.entries.map((e) => Date.parse(e.startedDateTime));
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      for (const e of log.entries) {
        expect(e.cache).toEqual({});
        expect(e.timings.send + e.timings.wait + e.timings.receive).toBeCloseTo(e.time, 1);
        expect(e._chunks.reduce((sum, c) => sum + c.n, 0)).toBe(e.response.content.size);
        // Every request names its session or its revision, is JSON-RPC, or is the legacy stream.
        const says = header(e, 'request', 'mcp-session-id') ?? header(e, 'request', 'mcp-protocol-version') ?? e.request.postData?.text;
        expect(says ?? /\/sse$/.exec(e.request.url)).toBeTruthy();
      }
    }
  });

  it('genuine: the resume replays from the next app_seq and ends with the real result', async () => {
    const { entries } = (await har('genuine')).log;
    const { post, lastId, requestId } = drained(entries);
    const [resume, ...more] = resumes(entries);
    expect(more).toEqual([]);
    expect(header(resume!, 'request', 'last-event-id')).toBe(lastId);
    expect(header(resume!, 'request', 'mcp-session-id')).toBe(header(post, 'request', 'mcp-session-id'));
    expect(resume!.response.status).toBe(200);
    expect(resume!.response._error).toBeUndefined();
    const replayed = events(resume!.response.content.text);
    expect(replayed.map(appSeq)).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);
    expect(replayed.at(-1)!.message).toMatchObject({ id: requestId, result: { _meta: { app_seq: 13 } } });
    expect(stdout).toContain('long_task finished 12 steps');
  });

  it('lost-buffer: the resume jumps from app_seq 5 to 11 and delivers a fake result', async () => {
    const { entries } = (await har('lost-buffer')).log;
    const { lastId, requestId } = drained(entries);
    const [resume] = resumes(entries);
    expect(header(resume!, 'request', 'last-event-id')).toBe(lastId);
    expect(resume!.response.status).toBe(200);
    const replayed = events(resume!.response.content.text);
    expect(replayed.map(appSeq)).toEqual([11, 12]);
    // Invented ids in the SDK's format, on the same stream as the client's cursor.
    for (const e of replayed) expect(e.id?.split('_')[0]).toBe(lastId.split('_')[0]);
    expect(replayed[1]!.message).toMatchObject({ id: requestId, result: {} });
  });

  it('rejected: the resume gets 409 resume_unavailable and the app re-issues the call', async () => {
    const { entries } = (await har('rejected')).log;
    const { requestId } = drained(entries);
    const [resume] = resumes(entries);
    expect(resume!.response.status).toBe(409);
    expect(JSON.parse(resume!.response.content.text)).toEqual({ error: 'resume_unavailable' });
    reissued(entries, resume!, requestId);
  });

  it('expired: the resume lands on the replica without the session, which answers its real 404', async () => {
    const { entries } = (await har('expired')).log;
    const { requestId } = drained(entries);
    const [resume] = resumes(entries);
    expect(resume!.response.status).toBe(404);
    expect(JSON.parse(resume!.response.content.text)).toMatchObject({ error: { message: 'Session not found' } });
    reissued(entries, resume!, requestId);
  });

  it('empty: the resume answers 200 with keep-alives only, and the app re-issues', async () => {
    const { entries } = (await har('empty')).log;
    const { requestId } = drained(entries);
    const [resume, ...more] = resumes(entries);
    expect(more).toEqual([]); // the app stopped the SDK from resuming again
    expect(resume!.response.status).toBe(200);
    expect(resume!.response.content.text).toMatch(/^(: keepalive\n\n)+$/);
    reissued(entries, resume!, requestId);
  });

  it('duplicate: the replay starts two events too early, repeating ids and app_seq', async () => {
    const { entries } = (await har('duplicate')).log;
    const { post } = drained(entries);
    const [resume] = resumes(entries);
    const replayed = events(resume!.response.content.text);
    expect(replayed.map(appSeq)).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    const delivered = events(post.response.content.text).map((e) => e.id);
    expect(delivered.slice(-2)).toEqual(replayed.slice(0, 2).map((e) => e.id));
  });

  it('legacy-sse: the SDK SSE transports, an endpoint event and 202s, no ids', async () => {
    const { entries } = (await har('legacy-sse')).log;
    const [stream, ...posts] = entries;
    expect(stream!.request.method).toBe('GET');
    const [endpoint, ...frames] = stream!.response.content.text.split('\n\n');
    expect(endpoint).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=/);
    const sent = events(frames.join('\n\n'));
    expect(sent.every((e) => e.id === undefined)).toBe(true);
    expect(sent.map(appSeq).filter((n) => n !== undefined)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    for (const p of posts) expect([p.request.method, p.response.status, p.request.url]).toEqual(['POST', 202, expect.stringContaining('/messages?sessionId=')]);
  });

  it('stateless: 2026-07-28 headers on every request, no session, and the resume gets 405', async () => {
    const { entries } = (await har('stateless')).log;
    for (const e of entries) {
      expect(header(e, 'request', 'mcp-protocol-version')).toBe('2026-07-28');
      expect(header(e, 'request', 'mcp-session-id') ?? header(e, 'response', 'mcp-session-id')).toBeUndefined();
      if (e.request.postData) expect(header(e, 'request', 'mcp-method')).toBe(JSON.parse(e.request.postData.text).method);
    }
    const post = entries.find(isToolCall)!;
    expect(post.response._error).toBe('net::ERR_INCOMPLETE_CHUNKED_ENCODING');
    const [resume] = resumes(entries);
    expect(resume!.response.status).toBe(405);
    const calls = entries.filter(isToolCall);
    expect(calls).toHaveLength(2);
    expect(events(calls[1]!.response.content.text).at(-1)!.message?.result?._meta?.app_seq).toBe(13);
  });

  it('records response headers exactly as they went over the wire', async () => {
    const { lb, close } = await startScenario('genuine', { drainAfterEvents: 6, fakeAppSeq: 11 });
    try {
      const { host, port } = new URL(lb.url);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire', version: '0' } } });
      const raw = await new Promise<string>((resolve, reject) => {
        let received = '';
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(`POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`),
        );
        socket.on('data', (d) => (received += d.toString()));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
      });
      await lb.log.settled();
      const onWire = raw.split('\r\n\r\n')[0]!.split('\r\n').slice(1);
      expect(lb.log.all()[0]!.response!.headers.map(([name, value]) => `${name}: ${value}`)).toEqual(onWire);
    } finally {
      await close();
    }
  });
});
