import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { header, type Exchange } from '../model';
import { harToExchanges, readEntry, readLogContext } from './read';

/**
 * The reader on HAR files written by the real writers (test/fixtures/har/writers, recorded by
 * `npm run record-writer-fixtures`; its README says what each writer records). A few tests
 * change a real file the way another writer's output differs from it, and say so.
 */
const DIR = join(import.meta.dirname, '../../../test/fixtures/har/writers');
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.har')).sort();
/** A parsed HAR, walked freely: the tests change real files the way other writers differ. */
type Json = Record<string, any>;
const load = (name: string): Json => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Json;

function read(har: unknown): { exchanges: Exchange[]; problems: string[] } {
  const result = harToExchanges(har);
  if (!result.ok) throw new Error(result.reason);
  expect(result.skippedEntries).toBe(0);
  return result;
}
const rpcMethod = (e: Exchange): string | undefined => (e.body === undefined ? undefined : (JSON.parse(e.body) as { method?: string }).method);
const toolCall = (exchanges: Exchange[]) => exchanges.find((e) => rpcMethod(e) === 'tools/call');
const resume = (exchanges: Exchange[]) => exchanges.find((e) => header(e.headers, 'last-event-id') !== undefined);
const text = (e: Exchange) => e.chunks.map((c) => (typeof c.data === 'string' ? c.data : new TextDecoder().decode(c.data))).join('');
const eventCount = (e: Exchange) => text(e).split(/\n\n/).filter((block) => /^data:/m.test(block)).length;

describe('every writer fixture', () => {
  it('covers every writer and both non-SDK servers', () => {
    for (const writer of ['devtools', 'playwright', 'chrome-har', 'firefox', 'mitmproxy']) expect(FIXTURES.some((f) => f.startsWith(`${writer}-`))).toBe(true);
    for (const server of ['hono', 'mcp-lite']) expect(FIXTURES.filter((f) => f.includes(`-${server}-`)).length).toBeGreaterThanOrEqual(4);
  });

  it.each(FIXTURES)('%s: every entry is read, numbered, with no problem noted', (name) => {
    const har = load(name);
    const { exchanges, problems } = read(har);
    expect(problems).toEqual([]);
    expect(exchanges.map((e) => e.entry)).toEqual(har.log.entries.map((_: unknown, i: number) => i));
    // Every POST of these runs is JSON-RPC, whichever field the writer put its body in.
    for (const e of exchanges.filter((x) => x.method === 'POST')) expect(JSON.parse(e.body!)).toMatchObject({ jsonrpc: '2.0' });
    // Every chunk lies inside its exchange: after it started, not after it ended.
    for (const e of exchanges) for (const c of e.chunks) expect(c.time).toBeGreaterThanOrEqual(e.startTime);
    for (const e of exchanges) for (const c of e.chunks) expect(c.time).toBeLessThanOrEqual(e.end.time!);
  });
});

describe('Playwright recordHar (Chromium)', () => {
  it.each(FIXTURES.filter((f) => f.startsWith('playwright-')))('%s: the reset stream is `_failureText` with no body; cancelled requests too', (name) => {
    const { exchanges } = read(load(name));
    expect(toolCall(exchanges)!.end).toMatchObject({ state: 'reset', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING', bodyAbsent: true });
    expect(toolCall(exchanges)!.chunks).toEqual([]);
    const notification = exchanges.find((e) => rpcMethod(e) === 'notifications/initialized')!;
    expect(notification.end).toMatchObject({ state: 'cancelled', error: 'net::ERR_ABORTED', bodyAbsent: true });
    expect(resume(exchanges)!.end).toEqual({ state: 'complete', time: expect.any(Number) });
    expect(eventCount(resume(exchanges)!)).toBeGreaterThan(0);
  });

  it('mcp-lite: its drained standalone GET is a reset with no body too', () => {
    const { exchanges } = read(load('playwright-mcp-lite-genuine.har'));
    const [standalone] = exchanges.filter((e) => e.method === 'GET');
    expect(standalone!.end).toMatchObject({ state: 'reset', bodyAbsent: true });
  });

  it('content._file is loaded through loadFile, and is absent (with a note) when it cannot be', () => {
    const har = load('playwright-hono-genuine.har');
    const entry = har.log.entries.find((e: Json) => e.request.headers.some((h: Json) => h.name.toLowerCase() === 'last-event-id'));
    const body = entry.response.content.text as string;
    entry.response.content = { size: body.length, mimeType: 'text/event-stream', _file: 'abc.dat' };
    const loaded = harToExchanges(har, { loadFile: (f) => (f === 'abc.dat' ? new TextEncoder().encode(body) : undefined) });
    expect(loaded.ok && text(resume(loaded.exchanges)!)).toBe(body);
    const missing = harToExchanges(har);
    expect(missing.ok && resume(missing.exchanges)!.end.bodyAbsent).toBe(true);
    expect(missing.ok && missing.problems).toEqual([expect.stringContaining('content._file "abc.dat" could not be read')]);
  });
});

describe('chrome-har', () => {
  it.each(FIXTURES.filter((f) => f.startsWith('chrome-har-')))('%s: the reset tools/call is missing; JSON bodies come back from postData.params', (name) => {
    const har = load(name);
    expect(har.log.entries.every((e: Json) => e.request.postData?.text === undefined)).toBe(true);
    const { exchanges } = read(har);
    expect(toolCall(exchanges)).toBeUndefined();
    const initialize = exchanges[0]!;
    expect(JSON.parse(initialize.body!)).toMatchObject({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { clientInfo: { name: 'stream-lens-demo' } } });
  });

  it('its `_chunks` `{ ts, bytes }` count from the page start and give each chunk its time', () => {
    const har = load('chrome-har-hono-genuine.har');
    const { exchanges } = read(har);
    const replay = resume(exchanges)!;
    expect(replay.chunks.length).toBeGreaterThan(1);
    const pageStart = Date.parse(har.log.pages[0].startedDateTime);
    const raw = har.log.entries[replay.entry!]._chunks as { ts: number; bytes: number }[];
    expect(replay.chunks.map((c) => c.time)).toEqual(raw.map((c) => pageStart + c.ts));
    expect(text(replay)).toBe(har.log.entries[replay.entry!].response.content.text);
  });

  it('a malformed `_chunks` is ignored with a counted note, and the body is still read', () => {
    const har = load('chrome-har-hono-genuine.har');
    har.log.entries[3]._chunks = [{ ts: 'soon', bytes: -1 }];
    har.log.entries[0]._chunks = [{ ts: 1, bytes: 9_999 }];
    const { exchanges, problems } = read(har);
    expect(problems).toEqual([expect.stringMatching(/^entry 0: _chunks does not add up/), expect.stringMatching(/^entry 3: _chunks does not add up/)]);
    expect(exchanges[3]!.chunks).toHaveLength(1);
    expect(eventCount(exchanges[3]!)).toBe(7);
  });
});

describe('Chrome DevTools (Save all as HAR)', () => {
  it('does not always list every event in `_eventSourceMessages`', () => {
    const entry = load('devtools-hono-lost-buffer.har').log.entries[4];
    expect(entry._eventSourceMessages ?? []).toHaveLength(0);
    expect(eventCount(read({ log: { entries: [entry] } }).exchanges[0]!)).toBe(2);
  });

  it('keeps the reset stream with its error and, here, its text', () => {
    const { exchanges } = read(load('devtools-hono-genuine.har'));
    expect(toolCall(exchanges)!.end).toMatchObject({ state: 'reset', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' });
    expect(toolCall(exchanges)!.end.bodyAbsent).toBeUndefined();
    expect(eventCount(toolCall(exchanges)!)).toBe(6);
  });

  it('without body text (as onRequestFinished gives a reset stream), `_eventSourceMessages` are the events, each at its time, and the body still counts as absent', () => {
    const har = load('devtools-hono-genuine.har');
    const entry = har.log.entries[3];
    const messages = entry._eventSourceMessages as { time: number; eventId: string; data: string }[];
    delete entry.response.content.text;
    const call = read(har).exchanges[3]!;
    expect(call.end.bodyAbsent).toBe(true);
    expect(call.chunks.map((c) => c.time)).toEqual(messages.map((m) => m.time * 1000));
    expect(text(call)).toBe(messages.map((m) => `id: ${m.eventId}\ndata: ${m.data}\n\n`).join(''));
  });

  it('with neither text nor messages, a body it counted is absent', () => {
    const har = load('devtools-hono-genuine.har');
    delete har.log.entries[3].response.content.text;
    delete har.log.entries[3]._eventSourceMessages;
    expect(read(har).exchanges[3]!.end).toMatchObject({ state: 'reset', bodyAbsent: true });
  });
});

describe('Firefox (auto-export)', () => {
  it.each(FIXTURES.filter((f) => f.startsWith('firefox-')))('%s: no entry has an error field, so every end is unknown', (name) => {
    const har = load(name);
    expect(JSON.stringify(har)).not.toMatch(/"_error"|"_failureText"/);
    const { exchanges } = read(har);
    expect(exchanges.every((e) => e.end.state === 'unknown' && !e.end.bodyAbsent)).toBe(true);
    // The drained tools/call kept its partial body, which ends on an event boundary here.
    expect(eventCount(toolCall(exchanges)!)).toBe(6);
  });

  it('a body that ends inside an event is an inferred reset', () => {
    const har = load('firefox-hono-genuine.har');
    const content = har.log.entries[3].response.content;
    content.text = (content.text as string).slice(0, -40);
    expect(read(har).exchanges[3]!.end).toMatchObject({ state: 'reset', inferred: true });
  });
});

describe('mitmproxy (har_dump)', () => {
  it('buffers until a response ends: the reset tools/call has no entry; bodies are postData.text beside params: []', () => {
    const har = load('mitmproxy-hono-genuine.har');
    expect(har.log.entries.every((e: Json) => !e.request.postData || (Array.isArray(e.request.postData.params) && e.request.postData.params.length === 0))).toBe(true);
    const { exchanges } = read(har);
    expect(exchanges.map((e) => rpcMethod(e) ?? e.method)).toEqual(['initialize', 'notifications/initialized', 'GET', 'DELETE']);
    expect(exchanges.every((e) => e.end.state === 'complete')).toBe(true);
  });
});

describe('bad input', () => {
  const base = () => load('playwright-hono-genuine.har').log.entries[3] as Json;

  it('impossible sizes, times and dates never throw', () => {
    const entry = base();
    Object.assign(entry, { time: -1, startedDateTime: '2999-01-01T00:00:00.000Z' });
    entry.response.content.size = -1;
    entry.timings = { receive: -1 };
    const exchange = readEntry(entry, {}, () => expect.fail('no problem expected'))!;
    expect(exchange.startTime).toBe(Date.parse('2999-01-01T00:00:00.000Z'));
    expect(exchange.end).toMatchObject({ state: 'reset', time: exchange.startTime, bodyAbsent: true });
  });

  it('unknown fields are ignored, and odd ones are read as unknown', () => {
    const entry: Json = { ...base(), _whatever: { deep: [1] }, time: 'long', _eventSourceMessages: 'many' };
    entry.response = { ...entry.response, content: null, _error: 42 };
    expect(readEntry(entry, {}, () => undefined)!.end).toMatchObject({ state: 'reset', error: 'net::ERR_INCOMPLETE_CHUNKED_ENCODING' });
  });

  it('chrome-har params: a batch, a form, and a hostile key', () => {
    const entry = (postData: unknown) => ({ ...base(), request: { ...base().request, postData } });
    const bodyOf = (postData: unknown) => readEntry(entry(postData), {}, () => undefined)!.body;
    expect(bodyOf({ mimeType: 'application/json', params: [{ name: '0', value: { id: 1 } }, { name: '1', value: { id: 2 } }] })).toBe('[{"id":1},{"id":2}]');
    expect(bodyOf({ mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a b', value: 'c&d' }] })).toBe('a%20b=c%26d');
    expect(JSON.parse(bodyOf({ mimeType: 'application/json', params: [{ name: '__proto__', value: { polluted: true } }] })!)).toEqual({ ['__proto__']: { polluted: true } });
    expect(({} as Json).polluted).toBeUndefined();
    expect(bodyOf({ mimeType: 'application/json', params: [{ name: 1 }] })).toBeUndefined();
  });

  it('a failed exchange with `size: 0` and no text had an empty body, not an absent one (our writer leaves out empty text)', () => {
    const entry = base();
    entry.response.content = { size: 0, mimeType: 'text/event-stream' };
    expect(readEntry(entry, {}, () => undefined)!.end.bodyAbsent).toBeUndefined();
    delete entry.response.content.size;
    expect(readEntry(entry, {}, () => undefined)!.end.bodyAbsent).toBe(true);
  });

  it('our own `_end` keeps an inferred end and an absent body across a round trip', () => {
    const entry = base();
    entry._end = { state: 'reset', inferred: true, bodyAbsent: true };
    entry.response.content = { size: 0, mimeType: 'text/event-stream', text: '' };
    expect(readEntry(entry, {}, () => undefined)!.end).toMatchObject({ state: 'reset', inferred: true, bodyAbsent: true });
  });

  it('the log context comes from the head of the file, for a reader that streams entries', () => {
    expect(readLogContext(load('firefox-hono-genuine.har').log)).toMatchObject({ marksNoErrors: true });
    expect(readLogContext(load('chrome-har-hono-genuine.har').log).pageStarts?.get('page_1')).toEqual(expect.any(Number));
    expect(readLogContext('nonsense')).toEqual({});
  });
});
