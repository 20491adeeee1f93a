import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, pseudonymizeReport, readHar, sessionPseudonyms, writeHar, type Exchange, type Report } from '../index';
import { MIN_BARE_ID_LENGTH } from './pseudonyms';
import { exchange, ORIGIN, prng, rechunk, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';

/**
 * Issue 7 (privacy): exports blank credentials and replace session ids with consistent
 * pseudonyms, so a shared HAR neither hands out a live session nor stops grouping like the
 * original. Every fixture the project has goes through the redacted round trip.
 */
const read = (har: unknown): Exchange[] => {
  const result = readHar(JSON.stringify(har));
  if (!result.ok) throw new Error(result.reason);
  expect(result.skippedEntries).toBe(0);
  return result.exchanges;
};

const HAR_DIR = join(import.meta.dirname, '../../../test/fixtures/har');
const REGRESSION_DIR = join(import.meta.dirname, '../../../test/fixtures/regressions');
const harFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.har')).sort();

/** Every fixture: the generated scenarios, the recorded SDK HARs and the fuzzing regressions. */
function allFixtures(): [string, Exchange[]][] {
  const recorded = (dir: string) =>
    harFiles(dir).map((f): [string, Exchange[]] => {
      const result = readHar(readFileSync(join(dir, f), 'utf8'));
      return [f, result.ok ? result.exchanges : []];
    });
  return [...Object.entries(scenarios).map(([name, make]): [string, Exchange[]] => [name, make()]), ...recorded(HAR_DIR), ...recorded(REGRESSION_DIR)];
}

/** The session ids of a capture as the analysis groups them (stateless keys are not ids). */
const realIds = (report: Report) => report.sessions.filter((s) => s.transport !== 'stateless').map((s) => s.key);

describe('export redaction: credentials', () => {
  it('blanks Authorization, Proxy-Authorization, Cookie and Set-Cookie by default; keeps them when told', () => {
    const ex = exchange({
      session: 'session-credentials',
      body: rpc.call(1),
      headers: [{ name: 'Authorization', value: 'Bearer secret' }, { name: 'proxy-authorization', value: 'Basic pp' }, { name: 'cookie', value: 'a=b' }],
      responseHeaders: [{ name: 'Set-Cookie', value: 'sid=1' }],
    });
    const har = JSON.stringify(writeHar([ex]));
    for (const secret of ['Bearer secret', 'Basic pp', 'a=b', 'sid=1']) expect(har).not.toContain(secret);
    expect(har.match(/\[redacted\]/g)).toHaveLength(4);
    const kept = JSON.stringify(writeHar([ex], { redact: false }));
    for (const secret of ['Bearer secret', 'Basic pp', 'a=b', 'sid=1', 'session-credentials']) expect(kept).toContain(secret);
  });
});

describe('export redaction: session ids', { timeout: 60_000 }, () => {
  const two = (): Exchange[] => [
    exchange({ session: 'first-session-0123456789', body: rpc.call(1), text: sse([{ id: 'a', data: rpc.result(1) }]) }),
    exchange({ session: 'second-session-9876543210abcdef', body: rpc.call(2), text: sse([{ id: 'b', data: rpc.result(2) }]) }),
    exchange({ method: 'GET', session: 'first-session-0123456789', headers: [{ name: 'Last-Event-ID', value: 'a' }], text: sse([{ id: 'c', data: rpc.message('x') }]) }),
  ];

  it('replaces each id, in request and response headers, by redacted-N in first-seen order', () => {
    const entries = writeHar(two()).log.entries;
    const ids = entries.map((e) => ({
      request: e.request.headers.find((h) => h.name.toLowerCase() === 'mcp-session-id')!.value,
      response: e.response.headers.find((h) => h.name.toLowerCase() === 'mcp-session-id')!.value,
    }));
    expect(ids).toEqual([
      { request: 'redacted-1', response: 'redacted-1' },
      { request: 'redacted-2', response: 'redacted-2' },
      { request: 'redacted-1', response: 'redacted-1' },
    ]);
    const text = JSON.stringify(entries);
    expect(text).not.toContain('first-session');
    expect(text).not.toContain('second-session');
  });

  it('takes a hostile id with a lone surrogate without throwing, and still replaces it', () => {
    const hostile = 'session-\uD800-0123456789abcdef';
    const entries = writeHar([exchange({ session: hostile, body: rpc.call(1), text: sse([{ id: 'a', data: rpc.result(1) }]) })]).log.entries;
    expect(entries[0]!.request.headers.find((h) => h.name.toLowerCase() === 'mcp-session-id')!.value).toBe('redacted-1');
    expect(JSON.stringify(entries)).not.toContain('0123456789abcdef');
  });

  it('does not leak the length of an id, and is no hash of it', () => {
    const pseudonymOf = (id: string) => writeHar([exchange({ session: id, body: rpc.call(1) })]).log.entries[0]!.request.headers.at(-1)!.value;
    expect(pseudonymOf('x'.repeat(200))).toBe('redacted-1');
    expect(pseudonymOf('y')).toBe('redacted-1');
  });

  it('keeps the ids with pseudonymizeSessions: false, while still blanking credentials', () => {
    const ex = exchange({ session: 'kept-session-id', body: rpc.call(1), headers: [{ name: 'Authorization', value: 'Bearer secret' }] });
    const text = JSON.stringify(writeHar([ex], { pseudonymizeSessions: false }));
    expect(text).toContain('kept-session-id');
    expect(text).not.toContain('Bearer secret');
    // The opposite: pseudonyms without blanking the headers named in a custom list.
    const custom = JSON.stringify(writeHar([ex], { redact: ['x-other'] }));
    expect(custom).toContain('Bearer secret');
    expect(custom).not.toContain('kept-session-id');
  });

  it('the legacy transport: the URL, its queryString and the endpoint event carry the same pseudonym', () => {
    const id = 'legacy-session-5ed246d4';
    const list = [
      exchange({ method: 'GET', url: `${ORIGIN}/sse`, text: sse([{ event: 'endpoint', data: `/messages?sessionId=${id}` }, { event: 'message', data: rpc.result(1) }]) }),
      exchange({ url: `${ORIGIN}/messages?sessionId=${id}&x=1`, body: rpc.call(1), status: 202, contentType: 'text/plain', text: 'Accepted' }),
    ];
    const [get, post] = writeHar(list).log.entries;
    expect(get!._sse![0]!.data).toBe('/messages?sessionId=redacted-1');
    expect(get!.response.content.text).toContain('sessionId=redacted-1');
    expect(post!.request.url).toBe(`${ORIGIN}/messages?sessionId=redacted-1&x=1`);
    expect(post!.request.queryString).toContainEqual({ name: 'sessionId', value: 'redacted-1' });
    expect(JSON.stringify([get, post])).not.toContain(id);
    expect(analyze(read(writeHar(list))).sessions.map((s) => s.key)).toEqual(['redacted-1']);
  });

  it('short ids are replaced where they are session ids, and nowhere else', () => {
    expect('s1'.length).toBeLessThan(MIN_BARE_ID_LENGTH);
    const ex = exchange({ session: 's1', body: rpc.call(1), text: sse([{ id: 's1-event', data: rpc.message('s1 stays') }]) });
    const [entry] = writeHar([ex]).log.entries;
    expect(entry!.request.headers.at(-1)).toEqual({ name: 'Mcp-Session-Id', value: 'redacted-1' });
    expect(entry!._sse![0]).toMatchObject({ id: 's1-event', data: expect.stringContaining('s1 stays') });
  });

  it('a real id that looks like a pseudonym is not merged with another session', () => {
    const list = [exchange({ session: 'some-real-session', body: rpc.call(1) }), exchange({ session: 'redacted-1', body: rpc.call(2) })];
    const keys = analyze(read(writeHar(list))).sessions.map((s) => s.key);
    expect(new Set(keys).size).toBe(2);
    expect(keys).not.toContain('some-real-session');
  });

  it('an id split across two body chunks is still replaced, and the chunks still add up', () => {
    const id = 'split-session-0123456789abcdef';
    const list = [exchange({ method: 'GET', url: `${ORIGIN}/sse`, text: sse([{ event: 'endpoint', data: `/messages?sessionId=${id}` }, { event: 'message', data: rpc.message(`echo ${id}`) }]) })];
    let tried = 0;
    for (let seed = 0; seed < 200; seed++) {
      const cut = rechunk(list, prng(seed), 9);
      const har = writeHar(cut);
      const text = JSON.stringify(har);
      expect(text).not.toContain(id);
      const entry = har.log.entries[0]!;
      expect(entry._chunks!.reduce((n, c) => n + c.n, 0)).toBe(new TextEncoder().encode(entry.response.content.text!).length);
      expect(entry._chunks).toHaveLength(cut[0]!.chunks.length);
      expect(read(har)[0]!.chunks).toHaveLength(cut[0]!.chunks.length);
      tried++;
    }
    console.log(`split ids: ${tried} chunkings, the id never survived`);
  });

  it('bodies that are not UTF-8 keep their bytes around the pseudonym', () => {
    const id = 'binary-session-0123456789';
    const ex = exchange({ method: 'GET', url: `${ORIGIN}/sse` });
    const before = new TextEncoder().encode(`event: endpoint\ndata: /m?sessionId=${id}\n\n`);
    ex.chunks = [{ time: ex.startTime, data: new Uint8Array([...before, 0xff, 0xc3, 0x28, 0x0a]) }];
    const entry = writeHar([ex]).log.entries[0]!;
    expect(entry.response.content.encoding).toBe('base64');
    const bytes = read(writeHar([ex]))[0]!.chunks[0]!.data as Uint8Array;
    expect(Array.from(bytes.slice(-4))).toEqual([0xff, 0xc3, 0x28, 0x0a]);
    expect(new TextDecoder().decode(bytes.slice(0, -4))).toBe('event: endpoint\ndata: /m?sessionId=redacted-1\n\n');
  });

  it('every fixture: the redacted export analyses to the same report, modulo the session ids', () => {
    const figures: string[] = [];
    let checked = 0;
    for (const [name, exchanges] of allFixtures()) {
      // The reader numbers each exchange by its entry (findings' evidence names it).
      const original = analyze(exchanges.map((e, i) => ({ ...e, entry: i })));
      const har = writeHar(exchanges);
      const back = analyze(read(har));
      // Exactly the original report with the same pseudonyms, and independently of that helper:
      // the same sessions, transports, streams, verdicts and findings, and no real id left.
      expect(back, name).toEqual(pseudonymizeReport(original, sessionPseudonyms(exchanges)));
      const shape = (r: Report) => r.sessions.map((s) => ({ transport: s.transport, streams: s.streams.map((t) => [t.index, t.events, t.end]), verdicts: s.resumes.map((v) => v.verdict), findings: s.findings.map((f) => f.code) }));
      expect(shape(back), name).toEqual(shape(original));
      expect(back.summary, name).toEqual(original.summary);
      const ids = realIds(original);
      expect(new Set(realIds(back)).size, name).toBe(new Set(ids).size);
      for (const key of realIds(back)) expect(key, name).toMatch(/^redacted-\d+$/);
      const text = JSON.stringify(har);
      for (const id of ids) if (id.length >= MIN_BARE_ID_LENGTH) expect(text.includes(id), `${name} leaks ${id}`).toBe(false);
      figures.push(`${name}:${ids.length}`);
      checked++;
    }
    console.log(`redacted round trip: ${checked} fixtures, same report modulo session ids (fixture:sessions ${figures.join(' ')})`);
    expect(checked).toBeGreaterThanOrEqual(Object.keys(scenarios).length + harFiles(HAR_DIR).length);
  });

  it('random session ids (short, unicode, regex and URL characters) group the same after the redacted round trip', () => {
    const CASES = 300;
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }).filter((s) => s.trim() === s && !/[\r\n\0]|^redacted-/.test(s)), { minLength: 1, maxLength: 4 }), fc.integer(), (ids, seed) => {
        const list = ids.flatMap((id, i) => [
          exchange({ session: id, body: rpc.call(i), text: sse([{ id: `${i}-a`, data: rpc.progress(`t${i}`, 1, 1) }]), end: 'reset' }),
          exchange({ method: 'GET', session: id, headers: [{ name: 'Last-Event-ID', value: `${i}-a` }], text: sse([{ id: `${i}-b`, data: rpc.result(i, 2) }]) }),
        ]);
        const exchanges = rechunk(list, prng(seed), 50);
        const back = analyze(read(writeHar(exchanges)));
        const original = analyze(exchanges);
        expect(back).toEqual(pseudonymizeReport(original, sessionPseudonyms(exchanges)));
        expect(back.sessions).toHaveLength(ids.length);
        expect(back.sessions.map((s) => s.key)).toEqual(ids.map((_, i) => `redacted-${i + 1}`));
      }),
      { numRuns: CASES },
    );
    console.log(`random session ids: ${CASES} cases, grouping preserved`);
  });
});
