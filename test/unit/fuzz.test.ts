import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, readHar, writeHar, type Exchange } from '../../src/core';
import { main } from '../../src/cli/main';
import { exchange, prng, rechunk, reportText, rpc, sse } from '../support/fixtures';
import { scenarios } from '../support/scenarios';

/**
 * Fuzzing the core and the CLI with fast-check: the core never throws and never hangs (every case
 * must finish within PER_CASE_MS, checked per case), the CLI only ever exits 0, 1 or 2. Counts are
 * printed so the run shows how much was tried.
 */
const CASES = 10_000;
const PER_CASE_MS = 2_000;

/** The slowest case seen per property, printed with its count so a creeping slowdown shows. */
const slowest = new Map<string, number>();

/** Runs one case and fails it if it took longer than the per-case bound. */
function bounded<A extends unknown[]>(name: string, body: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    const start = performance.now();
    body(...args);
    const took = performance.now() - start;
    slowest.set(name, Math.max(slowest.get(name) ?? 0, took));
    expect(took).toBeLessThan(PER_CASE_MS);
  };
}
const slowestMs = (name: string) => `slowest case ${(slowest.get(name) ?? 0).toFixed(1)} ms (bound ${PER_CASE_MS} ms)`;

/** One body as bytes, whatever its chunks held. */
function bodyBytes(ex: Exchange): Uint8Array {
  const encoder = new TextEncoder();
  const parts = ex.chunks.map((c) => (typeof c.data === 'string' ? encoder.encode(c.data) : c.data));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Cuts every body at a few random byte offsets (through UTF-8 sequences and CRLFs too). A few
 * cuts per case over 10,000 cases reach every boundary a byte-per-chunk split would, at a
 * fraction of the cost.
 */
function cutAt(list: readonly Exchange[], random: () => number, cuts: number): Exchange[] {
  return list.map((ex) => {
    const bytes = bodyBytes(ex);
    if (bytes.length === 0) return ex;
    const offsets = [...new Set(Array.from({ length: cuts }, () => Math.floor(random() * bytes.length)))].sort((a, b) => a - b);
    const chunks = [...offsets, bytes.length].map((end, i, all) => ({ time: ex.startTime + i, data: bytes.slice(i === 0 ? 0 : all[i - 1], end) }));
    return { ...ex, chunks };
  });
}

/** Byte sequences no UTF-8 decoder accepts: stray continuation, overlong, surrogate, cut-off, never-valid. */
const INVALID_UTF8: readonly (readonly number[])[] = [[0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xfe], [0xff], [0xc3]];

/** Byte-level mutations of real scenario bodies: flips, inserted CR/LF/NUL/colons, truncation. */
const mutatedBody = fc.record({
  scenario: fc.constantFrom(...Object.values(scenarios)),
  edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom(0x00, 0x0a, 0x0d, 0x3a, 0x20, 0xff, 0xc3, 0x7b, 0x22), fc.boolean()), { maxLength: 6 }),
  cut: fc.option(fc.nat(), { nil: undefined }),
});

const weirdId = fc.oneof(fc.string(), fc.constant('a\u0000b'), fc.constant('x\ny'), fc.constant('\u202eevil'), fc.integer().map(String));
const rpcShape = fc.oneof(
  fc.jsonValue(),
  fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0'), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)), method: fc.string(), params: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), result: fc.record({ _meta: fc.record({ app_seq: fc.oneof(fc.integer(), fc.double()) }) }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/progress'), params: fc.record({ progressToken: fc.oneof(fc.string(), fc.integer()), progress: fc.oneof(fc.integer(), fc.double(), fc.string()) }) }),
);

// Thousands of cases per test: a generous bound, since CI shares two cores with browser tests.
describe(`fuzzing (${CASES} cases per property)`, { timeout: 120_000 }, () => {
  it('mutated SSE bytes never throw', () => {
    let events = 0;
    fc.assert(fc.property(mutatedBody, bounded('mutated', ({ scenario, edits, cut }) => {
      const exchanges = scenario().map((ex) => {
        const bytes = new TextEncoder().encode(ex.chunks.map((c) => c.data as string).join(''));
        if (bytes.length === 0) return ex;
        let out = Array.from(bytes);
        for (const [at, byte, insert] of edits) out.splice(at % out.length, insert ? 0 : 1, byte);
        if (cut !== undefined) out = out.slice(0, cut % (out.length + 1));
        return { ...ex, chunks: [{ time: ex.startTime, data: new Uint8Array(out) }] };
      });
      events += analyze(exchanges).summary.events;
    })), { numRuns: CASES });
    console.log(`mutated SSE: ${CASES} cases, ${events} events analysed, 0 exceptions, ${slowestMs('mutated')}`);
  });

  it('random JSON-RPC shapes and ids with NUL, newlines and bidi overrides never throw', () => {
    fc.assert(fc.property(fc.array(fc.tuple(weirdId, rpcShape), { minLength: 1, maxLength: 6 }), fc.option(weirdId), bounded('shapes', (blocks, lastEventId) => {
      const text = blocks.map(([id, data]) => `id: ${id}\ndata: ${JSON.stringify(data) ?? 'null'}\n\n`).join('');
      const list = [exchange({ session: 's', body: rpc.call(1), text, end: 'reset' })];
      if (lastEventId !== null) list.push(exchange({ method: 'GET', session: 's', headers: [{ name: 'Last-Event-ID', value: lastEventId }], text }));
      const report = analyze(list);
      expect(report.summary.streams).toBe(list.length);
    })), { numRuns: CASES });
    console.log(`JSON-RPC shapes: ${CASES} cases, 0 exceptions, ${slowestMs('shapes')}`);
  });

  it('random HAR structures are read or refused, and what is read analyses without throwing', () => {
    let refused = 0;
    const entry = fc.record({
      startedDateTime: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string()),
      time: fc.oneof(fc.nat(), fc.double()),
      request: fc.record({ method: fc.constantFrom('GET', 'POST', 7), url: fc.oneof(fc.webUrl(), fc.string()), headers: fc.array(fc.record({ name: fc.constantFrom('mcp-session-id', 'Last-Event-ID', 'x'), value: fc.oneof(fc.string(), fc.integer()) })), postData: fc.record({ text: fc.oneof(fc.string(), fc.constant(JSON.stringify(rpc.call(1)))) }) }, { requiredKeys: [] }),
      response: fc.record({ status: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.string()), headers: fc.constant([{ name: 'content-type', value: 'text/event-stream' }]), content: fc.record({ text: fc.oneof(fc.string(), fc.constant(sse([{ id: 'a', data: rpc.result(1, 2) }])), fc.constant(null)), encoding: fc.constantFrom('base64', undefined) }, { requiredKeys: [] }), _error: fc.option(fc.string()) }, { requiredKeys: [] }),
      _chunks: fc.option(fc.array(fc.record({ t: fc.double(), n: fc.integer({ min: -5, max: 50 }) }))),
      _sse: fc.option(fc.array(fc.record({ t: fc.double(), id: weirdId, data: fc.string() }, { requiredKeys: [] }))),
    }, { requiredKeys: [] });
    fc.assert(fc.property(fc.oneof(fc.record({ log: fc.record({ entries: fc.array(fc.oneof(entry, fc.anything()), { maxLength: 5 }) }) }), fc.anything()), bounded('har', (value) => {
      const result = readHar(JSON.stringify(value) ?? 'undefined');
      if (!result.ok) refused++;
      else analyze(result.exchanges);
    })), { numRuns: CASES });
    console.log(`HAR structures: ${CASES} cases, ${refused} refused with a reason, 0 exceptions, ${slowestMs('har')}`);
  });

  it('the CLI exits 0, 1 or 2 on arbitrary files and never crashes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'msl-fuzz-'));
    const codes = new Map<number, number>();
    const runs = 500; // each run writes a file; 500 keeps this under a few seconds
    await fc.assert(fc.asyncProperty(fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.constantFrom(...Object.values(scenarios)).map((make) => JSON.stringify(writeHar(make()))),
      fc.constantFrom(...Object.values(scenarios)).chain((make) => fc.nat().map((n) => { const s = JSON.stringify(writeHar(make())); return s.slice(0, n % s.length); })),
    ), async (content) => {
      const path = join(dir, 'case.har');
      writeFileSync(path, content);
      const start = performance.now();
      const code = await main(['check', path, '--format', 'json'], { stdout: () => undefined, stderr: () => undefined });
      const took = performance.now() - start;
      slowest.set('cli', Math.max(slowest.get('cli') ?? 0, took));
      expect(took).toBeLessThan(PER_CASE_MS);
      codes.set(code, (codes.get(code) ?? 0) + 1);
      expect([0, 1, 2]).toContain(code);
    }), { numRuns: runs });
    console.log(`CLI: ${runs} files, exit codes ${JSON.stringify(Object.fromEntries(codes))}, ${slowestMs('cli')}`);
  });
  it('ids with NUL, CR, LF and line separators, fed as random byte chunks, give the report of the whole text', () => {
    const rawId = fc.oneof(weirdId, fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('a\r\nb', '\r', 'id\u2028x', '\u0000', 'e\n\nid: forged'));
    let events = 0;
    fc.assert(fc.property(fc.array(fc.tuple(rawId, fc.nat(3)), { minLength: 1, maxLength: 6 }), fc.integer(), fc.integer({ min: 1, max: 12 }), bounded('raw-ids', (blocks, seed, cuts) => {
      // The id is written raw, as a hostile server would: its line breaks start new fields.
      const text = blocks.map(([id, n]) => `id: ${id}\ndata: ${JSON.stringify(rpc.progress('tok-1', n + 1, n + 1))}\n\n`).join('');
      // What the bytes say (lone surrogates become U+FFFD on the way), as one already-decoded string.
      const whole = new TextDecoder().decode(new TextEncoder().encode(text));
      const list = [exchange({ session: 's', body: rpc.call(1), text: whole, end: 'reset' })];
      const expected = reportText(analyze(list));
      expect(reportText(analyze(cutAt(list, prng(seed), cuts)))).toBe(expected);
      events += JSON.parse(expected).summary.events;
    })), { numRuns: CASES });
    console.log(`raw ids through the byte path: ${CASES} cases, ${events} events, reports chunk-invariant, ${slowestMs('raw-ids')}`);
  });

  it('invalid UTF-8 in real bodies: random byte chunks give the report of one chunk, and never throw', () => {
    let invalidBodies = 0;
    fc.assert(fc.property(
      fc.constantFrom(...Object.values(scenarios)),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVALID_UTF8)), { minLength: 1, maxLength: 4 }),
      fc.integer(),
      fc.integer({ min: 1, max: 12 }),
      bounded('invalid-utf8', (scenario, inserts, seed, cuts) => {
        const list = scenario().map((ex) => {
          const bytes = Array.from(bodyBytes(ex));
          if (bytes.length === 0) return ex;
          for (const [at, sequence] of inserts) bytes.splice(at % bytes.length, 0, ...sequence);
          return { ...ex, chunks: [{ time: ex.startTime + 1, data: new Uint8Array(bytes) }] };
        });
        invalidBodies += list.filter((ex) => ex.chunks.length > 0).length;
        const expected = reportText(analyze(list));
        expect(reportText(analyze(cutAt(list, prng(seed), cuts)))).toBe(expected);
      }),
    ), { numRuns: CASES });
    console.log(`invalid UTF-8: ${CASES} cases, ${invalidBodies} bodies with invalid sequences, reports chunk-invariant, ${slowestMs('invalid-utf8')}`);
  });

  it('invalid UTF-8 survives the HAR round trip as base64 and analyses the same', () => {
    const runs = 2_000; // each case writes, serialises and parses a whole HAR
    let base64 = 0;
    fc.assert(fc.property(
      fc.constantFrom(...Object.values(scenarios)),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...INVALID_UTF8)), { minLength: 1, maxLength: 4 }),
      bounded('har-base64', (scenario, inserts) => {
        const list = scenario().map((ex) => {
          const bytes = Array.from(bodyBytes(ex));
          if (bytes.length === 0) return ex;
          for (const [at, sequence] of inserts) bytes.splice(at % bytes.length, 0, ...sequence);
          return { ...ex, chunks: [{ time: ex.startTime + 1, data: new Uint8Array(bytes) }] };
        });
        const har = writeHar(list, { redact: false });
        base64 += har.log.entries.filter((e) => e.response.content.encoding === 'base64').length;
        const back = readHar(JSON.stringify(har));
        expect(back.ok).toBe(true);
        // The reader numbers each exchange by its HAR entry (findings' evidence names it).
        if (back.ok) expect(JSON.stringify(analyze(back.exchanges))).toBe(JSON.stringify(analyze(list.map((e, entry) => ({ ...e, entry })))));
      }),
    ), { numRuns: runs });
    expect(base64).toBeGreaterThan(0);
    console.log(`HAR base64 round trip: ${runs} cases, ${base64} bodies written as base64, same reports, ${slowestMs('har-base64')}`);
  });
});

/** A few cases, not thousands: each one is a 10 MB event through every path a body can take. */
describe('10 MB events', { timeout: 120_000 }, () => {
  const TEN_MB = 10 * 1024 * 1024;
  const EVENT_BOUND_MS = 30_000;
  const timed = <T>(label: string, run: () => T): T => {
    const start = performance.now();
    const result = run();
    const took = performance.now() - start;
    console.log(`10 MB event, ${label}: ${took.toFixed(0)} ms (bound ${EVENT_BOUND_MS} ms)`);
    expect(took).toBeLessThan(EVENT_BOUND_MS);
    return result;
  };
  // Multi-byte characters, so that chunk cuts fall inside UTF-8 sequences.
  const big = 'é€'.repeat(Math.ceil(TEN_MB / 5));
  const bigEvent = () => exchange({ session: 's', body: rpc.call(1), text: sse([{ id: 'big', data: rpc.message(big) }, { id: 'after', data: rpc.result(1) }]) });

  it('in one chunk, in 64 KB byte chunks, and in 1 MB chunks: two events, the same report', () => {
    const one = [bigEvent()];
    const expected = timed('one chunk', () => analyze(one));
    expect(expected.sessions[0]!.streams[0]!.events).toBe(2);
    expect(expected.summary.errors).toBe(0);
    for (const maxChunk of [64 * 1024, 1024 * 1024]) {
      const cut = rechunk(one, prng(maxChunk), maxChunk);
      expect(timed(`${cut[0]!.chunks.length} chunks of up to ${maxChunk} bytes`, () => analyze(cut))).toEqual(expected);
    }
  });

  it('a 10 MB id, and a 10 MB unterminated event that a reset cuts off', () => {
    const longId = exchange({ session: 's', body: rpc.call(1), text: `id: ${'i'.repeat(TEN_MB)}\ndata: ${JSON.stringify(rpc.result(1))}\n\n` });
    const report = timed('10 MB id', () => analyze([longId]));
    expect(report.sessions[0]!.streams[0]!.events).toBe(1);
    const cutOff = exchange({ session: 's', body: rpc.call(1), text: `id: a\ndata: {"jsonrpc":"2.0","method":"m","params":{"s":"${'x'.repeat(TEN_MB)}`, end: 'reset' });
    const truncated = timed('unterminated, reset', () => analyze([cutOff]));
    // The cut-off block is shown but not counted, and nothing calls it malformed.
    expect(truncated.sessions[0]!.streams[0]).toMatchObject({ events: 0, end: 'reset' });
    expect(truncated.sessions[0]!.findings.map((f) => f.code)).toEqual(['result-lost']);
  });

  it('with invalid UTF-8 inside, through a HAR written as base64 and read back', () => {
    const ex = bigEvent();
    const bytes = bodyBytes(ex);
    const spoiled = new Uint8Array(bytes.length + 2);
    spoiled.set(bytes.subarray(0, 100));
    spoiled.set([0xed, 0xa0], 100); // a surrogate's first bytes, inside the JSON string
    spoiled.set(bytes.subarray(100), 102);
    ex.chunks = [{ time: ex.startTime + 1, data: spoiled }];
    const text = timed('HAR write', () => JSON.stringify(writeHar([ex], { redact: false })));
    const back = timed('HAR read', () => readHar(text));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(timed('analysis after the round trip', () => analyze(back.exchanges))).toEqual(analyze([{ ...ex, entry: 0 }]));
  });
});

/** Issue 7: any crash the fuzzer finds becomes a file in test/fixtures/regressions (see its README). */
describe('regression fixtures', { timeout: 120_000 }, () => {
  const dir = join(import.meta.dirname, '../fixtures/regressions');
  const files = readdirSync(dir).filter((f) => f.endsWith('.har')).sort();
  const CHUNKINGS = 500;

  it('has the regressions the README lists', () => {
    const listed = [...readFileSync(join(dir, 'README.md'), 'utf8').matchAll(/^\| `([^`]+\.har)`/gm)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(0);
    expect(files).toEqual(listed.sort());
  });

  it.each(files)('%s: analyses the same under random chunkings, and the CLI exits 0, 1 or 2', async (name) => {
    const path = join(dir, name);
    const read = readHar(readFileSync(path, 'utf8'));
    if (read.ok) {
      const expected = reportText(analyze(read.exchanges));
      for (let seed = 0; seed < CHUNKINGS; seed++) {
        bounded('regressions', () => expect(reportText(analyze(cutAt(read.exchanges, prng(seed), 1 + (seed % 12))))).toBe(expected))();
      }
    }
    const start = performance.now();
    const code = await main(['check', path, '--format', 'json'], { stdout: () => undefined, stderr: () => undefined });
    expect(performance.now() - start).toBeLessThan(PER_CASE_MS);
    expect([0, 1, 2]).toContain(code);
    console.log(`${name}: ${read.ok ? `${CHUNKINGS} chunkings, same report` : 'refused'}; CLI exit ${code}; ${slowestMs('regressions')}`);
  });
});
