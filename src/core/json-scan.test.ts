import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEEDS_FULL_PARSE, NOT_JSON, scanJson } from './json-scan';
import { classify, isRecord } from './jsonrpc';
import { resumeTokenOf, sequenceOf } from './sequence';

const CASES = 10_000;

/** JSON.parse's verdict in the scanner's terms. */
function reference(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? NEEDS_FULL_PARSE : value;
  } catch {
    return NOT_JSON;
  }
}

/** Everything the rules read from a parsed event. */
function observe(value: unknown): unknown {
  if (typeof value === 'symbol') return value;
  const classified = classify(value);
  if ('problem' in classified) return classified;
  return classified.messages.map((m) => {
    const result = m.value.result;
    return {
      role: m.role,
      idKey: m.idKey,
      method: m.method,
      progressToken: m.progressToken,
      progress: m.progress,
      stopReason: m.stopReason,
      seq: sequenceOf(m, []),
      resumeToken: resumeTokenOf(m),
      hasResult: 'result' in m.value,
      protocol: isRecord(result) ? [result.protocolVersion, 'serverInfo' in result] : null,
    };
  });
}

const NAMES = ['jsonrpc', 'id', 'method', 'params', 'result', 'error', 'app_seq', 'resume_token', 'progressToken', 'progress', '_meta', 'data',
  'stop_reason', 'stopReason', 'protocolVersion', 'serverInfo', '__proto__', 'constructor', 'toString'];
const leaf = fc.oneof(
  fc.constantFrom('2.0', 'notifications/progress', 'end_turn', 'stop', 'tok', '', '\u202e', 'a"b\\c\n'),
  fc.integer({ min: -5, max: 2 ** 53 + 2 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string(),
);
/** Objects built from the names the scanner keeps (and a few traps), nested and duplicated. */
const { node } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string()), tie('node')), { maxLength: 6 }),
    fc.array(tie('node'), { maxLength: 3 }).map((items) => ({ array: items })),
  ),
}));

/** Serialises a node, keeping duplicate keys (JSON.stringify of an object cannot). */
function write(value: unknown, style: { space: string; escapeKeys: boolean }): string {
  if (Array.isArray(value)) {
    const members = (value as [string, unknown][]).map(([k, v]) => `${style.space}${key(k, style.escapeKeys)}${style.space}:${style.space}${write(v, style)}`);
    return `{${members.join(',')}${style.space}}`;
  }
  if (isRecord(value) && Array.isArray(value.array)) return `[${(value.array as unknown[]).map((v) => write(v, style)).join(`,${style.space}`)}]`;
  return JSON.stringify(value) ?? 'null';
}
function key(name: string, escape: boolean): string {
  const json = JSON.stringify(name);
  return escape ? json.replace(/_/g, '\\u005f').replace(/a/g, '\\u0061') : json;
}

const document = fc.tuple(node, fc.constantFrom('', ' ', '\n\t', '\r\n  '), fc.boolean()).map(([value, space, escapeKeys]) => write(value, { space, escapeKeys }));

/** Cuts, doubles or replaces a few characters: the near-misses a broken stream produces. */
const mutated = fc.tuple(document, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', '"', '\\', '{', '}', '[', ']', ',', ':', '0', '-', '.', 'e', 'u', '\u0000', '\n', ' ', 'x')), { maxLength: 3 }))
  .map(([text, edits]) => {
    let out = text;
    for (const [where, cut, insert] of edits) {
      const at = out.length === 0 ? 0 : where % out.length;
      out = out.slice(0, at) + insert + out.slice(at + cut);
    }
    return out;
  });

describe(`the pruning JSON scanner against JSON.parse (${CASES} cases per property)`, { timeout: 120_000 }, () => {
  it('agrees on validity and on every field the rules read, for documents built from the kept names', () => {
    fc.assert(fc.property(document, (text) => void expect(observe(scanJson(text))).toEqual(observe(reference(text)))), { numRuns: CASES });
  });

  it('agrees on mutated documents: what JSON.parse refuses, the scanner refuses', () => {
    let refused = 0;
    fc.assert(fc.property(mutated, (text) => {
      const expected = observe(reference(text));
      if (expected === NOT_JSON) refused++;
      expect(observe(scanJson(text))).toEqual(expected);
    }), { numRuns: CASES });
    console.log(`json-scan: ${CASES} mutated documents, ${refused} of them not JSON`);
    // The property must see both sides of the grammar to mean anything.
    expect(refused).toBeGreaterThan(CASES / 10);
    expect(refused).toBeLessThan(CASES);
  });

  it('agrees on arbitrary JSON and on arbitrary strings', () => {
    fc.assert(fc.property(fc.oneof(fc.json(), fc.string(), fc.string({ unit: 'binary' })), (text) => void expect(observe(scanJson(text))).toEqual(observe(reference(text)))), { numRuns: CASES });
  });

  it('reads numbers, escapes and literals as JSON.parse does', () => {
    const texts = ['{"jsonrpc":"2.0","method":"m","params":{"_meta":{"app_seq":1e2}}}', '{"jsonrpc":"2.0","id":-0.0,"result":{}}',
      '{"jsonrpc":"2.0","id":"\\ud800","result":{"_meta":{"resume_token":"\\u0041\\n"}}}', '{"jsonrpc":"2.0","id":1,"result":null}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1E0,"progress":2.5E-1}}', ' \t\r\n{}\n', '01', '1.', '-', '"\\x"', '[1,]', '{"a":1,}', '\ufeff{}'];
    for (const text of texts) expect(observe(scanJson(text)), text).toEqual(observe(reference(text)));
  });

  it('skips deep nesting without using the call stack', () => {
    const deep = `{"jsonrpc":"2.0","method":"m","params":{"x":${'['.repeat(200_000)}${']'.repeat(200_000)},"app_seq":7}}`;
    expect(observe(scanJson(deep))).toEqual(observe(reference(deep)));
    expect(scanJson(`{"x":${'['.repeat(1000)}}`)).toBe(NOT_JSON);
  });
});
