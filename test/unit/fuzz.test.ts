import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, readHar, writeHar } from '../../src/core';
import { main } from '../../src/cli/main';
import { exchange, rpc, sse } from '../support/fixtures';
import { scenarios } from '../support/scenarios';

/**
 * Fuzzing the core and the CLI with fast-check: the core never throws and never hangs (every case
 * must finish within PER_CASE_MS, checked per case), the CLI only ever exits 0, 1 or 2. Counts are
 * printed so the run shows how much was tried.
 */
const CASES = 10_000;
const PER_CASE_MS = 2_000;

/** Runs one case and fails it if it took longer than the per-case bound. */
function bounded<A extends unknown[]>(body: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    const start = performance.now();
    body(...args);
    expect(performance.now() - start).toBeLessThan(PER_CASE_MS);
  };
}

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
    fc.assert(fc.property(mutatedBody, bounded(({ scenario, edits, cut }) => {
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
    console.log(`mutated SSE: ${CASES} cases, ${events} events analysed, 0 exceptions`);
  });

  it('random JSON-RPC shapes and ids with NUL, newlines and bidi overrides never throw', () => {
    fc.assert(fc.property(fc.array(fc.tuple(weirdId, rpcShape), { minLength: 1, maxLength: 6 }), fc.option(weirdId), bounded((blocks, lastEventId) => {
      const text = blocks.map(([id, data]) => `id: ${id}\ndata: ${JSON.stringify(data) ?? 'null'}\n\n`).join('');
      const list = [exchange({ session: 's', body: rpc.call(1), text, end: 'reset' })];
      if (lastEventId !== null) list.push(exchange({ method: 'GET', session: 's', headers: [{ name: 'Last-Event-ID', value: lastEventId }], text }));
      const report = analyze(list);
      expect(report.summary.streams).toBe(list.length);
    })), { numRuns: CASES });
    console.log(`JSON-RPC shapes: ${CASES} cases, 0 exceptions`);
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
    fc.assert(fc.property(fc.oneof(fc.record({ log: fc.record({ entries: fc.array(fc.oneof(entry, fc.anything()), { maxLength: 5 }) }) }), fc.anything()), bounded((value) => {
      const result = readHar(JSON.stringify(value) ?? 'undefined');
      if (!result.ok) refused++;
      else analyze(result.exchanges);
    })), { numRuns: CASES });
    console.log(`HAR structures: ${CASES} cases, ${refused} refused with a reason, 0 exceptions`);
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
      const code = await main(['check', path, '--format', 'json'], { stdout: () => undefined, stderr: () => undefined });
      codes.set(code, (codes.get(code) ?? 0) + 1);
      expect([0, 1, 2]).toContain(code);
    }), { numRuns: runs });
    console.log(`CLI: ${runs} files, exit codes ${JSON.stringify(Object.fromEntries(codes))}`);
  });
});
