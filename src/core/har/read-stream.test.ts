import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyzer';
import type { Exchange } from '../model';
import { readHar, type HarReadOptions, type HarReadResult } from './read';
import { createHarStreamReader } from './read-stream';

/**
 * The streaming reader against readHar, which reads the whole text: on every HAR fixture, in
 * the layouts writers use (pretty-printed, compact on one line, one entry a line), with bodies
 * in `content.text`, base64 and Playwright's `_file`, cut into chunks of random sizes. The
 * exchanges, the problems and the report must be the same.
 */
const ROOT = join(import.meta.dirname, '../../../test/fixtures/har');
const FIXTURES = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.har'))
  .sort();
const encoder = new TextEncoder();
type Json = Record<string, any>;

/** Reads `bytes` with the streaming reader, cut at `cuts` (fractions of the length). */
function streamed(bytes: Uint8Array, cuts: readonly number[] = [], options: HarReadOptions = {}): HarReadResult {
  const exchanges: Exchange[] = [];
  const reader = createHarStreamReader((exchange) => exchanges.push(exchange), options);
  const at = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    reader.push(bytes.subarray(from, cut));
    from = cut;
  }
  const result = reader.finish();
  expect(reader.bytes).toBe(bytes.length);
  return result.ok ? { ok: true, exchanges, skippedEntries: result.skippedEntries, problems: result.problems } : result;
}

/** The layouts writers use: as recorded, pretty-printed with 4 spaces, all on one line, one entry a line. */
function layouts(text: string): Record<string, string> {
  const har = JSON.parse(text) as Json;
  const { entries, ...rest } = har.log as Json;
  const perLine = `{"log":${JSON.stringify(rest).slice(0, -1)},"entries":[\n${(entries as unknown[]).map((e) => JSON.stringify(e)).join(',\n')}\n]}}`;
  return { recorded: text, pretty: JSON.stringify(har, null, 4), compact: JSON.stringify(har), perLine };
}

const expectSame = (bytes: Uint8Array, text: string, cuts: readonly number[] = [], options: HarReadOptions = {}) => {
  const whole = readHar(text, options);
  const stream = streamed(bytes, cuts, options);
  expect(stream).toEqual(whole);
  if (whole.ok && stream.ok) expect(analyze(stream.exchanges, { keepPayloads: false })).toEqual(analyze(whole.exchanges, { keepPayloads: false }));
};

describe('the streaming HAR reader reads what readHar reads', () => {
  it('has every fixture to read', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(20);
    expect(FIXTURES.some((f) => f.startsWith('writers/playwright-'))).toBe(true);
  });

  describe.each(FIXTURES)('%s', (name) => {
    const text = readFileSync(join(ROOT, name), 'utf8');

    it.each(Object.entries(layouts(text)))('laid out %s, in one chunk and in random chunks', (_, laid) => {
      const bytes = encoder.encode(laid);
      expectSame(bytes, laid);
      fc.assert(
        fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), (cuts) => expectSame(bytes, laid, cuts)),
        { numRuns: 8 },
      );
    });

    it('with bodies in base64, and in files beside the HAR (Playwright attach mode)', () => {
      const har = JSON.parse(text) as Json;
      const files = new Map<string, Uint8Array>();
      const base64 = structuredClone(har);
      for (const [i, entry] of (har.log.entries as Json[]).entries()) {
        const content = entry.response?.content as Json | undefined;
        if (typeof content?.text !== 'string' || content.encoding === 'base64') continue;
        const body = encoder.encode(content.text);
        base64.log.entries[i].response.content = { ...content, text: btoa(String.fromCharCode(...body)), encoding: 'base64' };
        files.set(`${i}.txt`, body);
        entry.response.content = { ...content, text: undefined, _file: `${i}.txt` };
      }
      const loadFile = (file: string) => files.get(file);
      for (const variant of [base64, har]) {
        const laid = JSON.stringify(variant);
        expectSame(encoder.encode(laid), laid, [0.3, 0.6], { loadFile });
      }
    });
  });
});

describe('the fast path guesses, and a wrong guess costs no entry', () => {
  /** Entries whose nested objects begin with the key every entry begins with. */
  const tricky = (indent?: number) => {
    const entry = (i: number) => ({
      startedDateTime: '2026-01-01T00:00:00.000Z',
      time: 1,
      request: { method: 'POST', url: `http://127.0.0.1/mcp?${i}`, headers: [{ name: 'mcp-session-id', value: 's' }], postData: { mimeType: 'application/json', text: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' } },
      response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: 1, mimeType: 'text/event-stream', text: `data: {"startedDateTime":1}\n\n,{"startedDateTime"` } },
      // The same bytes as a boundary between entries, one level down.
      _extra: [{ startedDateTime: 'x' }, { startedDateTime: 'y' }],
      _text: ',{"startedDateTime"\\',
    });
    return JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [entry(0), entry(1), entry(2), entry(3)] } }, null, indent);
  };
  it.each([undefined, 2])('indent %s: same exchanges in any chunking', (indent) => {
    const text = tricky(indent);
    const bytes = encoder.encode(text);
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (cuts) => expectSame(bytes, text, cuts)), { numRuns: 50 });
    expect((readHar(text) as { exchanges: Exchange[] }).exchanges).toHaveLength(4);
  });

  it('non-ASCII text cut inside a character, and a byte order mark', () => {
    const text = `\uFEFF${tricky(1).replace(/"s"/g, '"sé😀ß"')}`;
    const bytes = encoder.encode(text);
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (cuts) => expectSame(bytes, text, cuts)), { numRuns: 50 });
  });
});

describe('files that are not HAR are refused as readHar refuses them', () => {
  const good = JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [{ request: { method: 'GET', url: 'http://127.0.0.1/' } }, 7] } });
  it.each([
    ['no log', '{"other":{"entries":[]}}'],
    ['log is not an object', '{"log":[{"entries":[]}]}'],
    ['an array', '[{"log":{"entries":[]}}]'],
    ['a number', '42'],
    ['entries not an array', '{"log":{"entries":{}}}'],
    ['no entries', '{"log":{"version":"1.2"}}'],
    ['an entry that is no object (skipped and counted)', good],
    ['an empty array', '{"log":{"entries":[]}}'],
    ['keys with escapes', '{"\\u006cog":{"entr\\u0069es":[{"request":{"method":"GET","url":"u"}}]}}'],
  ])('%s', (_, text) => {
    expectSame(encoder.encode(text), text);
  });

  it.each([
    ['empty', ''],
    ['cut short', good.slice(0, -3)],
    ['cut inside a string', good.slice(0, 40)],
    ['two values', `${good} {}`],
    ['a trailing comma', good.replace(',7]', ',7,]')],
    ['an entry that is not JSON', good.replace('"GET"', 'GET')],
    ['brackets that do not match', good.replace(',7]', ',7}')],
  ])('%s: not valid JSON', (_, text) => {
    expect(readHar(text).ok).toBe(false);
    const result = streamed(encoder.encode(text), [0.5]);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/^not valid JSON/) });
  });
});
