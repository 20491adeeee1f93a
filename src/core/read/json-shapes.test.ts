import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createShapeParser, numberOf, type ShapeParser } from './json-shapes';

/** What JSON.parse makes of `text`: its value, or that it throws. */
function outcome(parse: (text: string) => unknown, text: string): { value: unknown } | { throws: true } {
  try {
    return { value: parse(text) };
  } catch {
    return { throws: true };
  }
}

/** Key order and -0 both matter: compare the values and their serialisations. */
function expectSame(parser: ShapeParser, text: string): void {
  const mine = outcome((t) => parser.parse(t), text);
  const native = outcome(JSON.parse, text);
  expect(mine).toStrictEqual(native);
  if ('value' in mine && 'value' in native) expect(JSON.stringify(mine.value)).toBe(JSON.stringify(native.value));
}

/** A parser that has seen `text` twice, so it has learned `text`'s shape if it can. */
function taught(...texts: string[]): ShapeParser {
  const parser = createShapeParser();
  for (const text of texts) {
    parser.parse(text);
    parser.parse(text);
  }
  return parser;
}

const progress = (step: number, message = `step ${step}`) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok-1', progress: step, total: 10, message, _meta: { app_seq: step } } });

/** `value` with each scalar replaced by the next of `fresh`, so the structure stays the same. */
function refill(value: unknown, fresh: () => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => refill(item, fresh));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, refill(v, fresh)]));
  return fresh();
}

const scalar = fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(-0));
/** Characters that change JSON's meaning, control characters and unpaired surrogates. */
const noise = fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\n', '\u0000', '\u001f', '0', '1', '-', '+', '.', 'e', 'E', 'u', 'n', 't', 'f', 'a', '\uD800', 'é');

describe('createShapeParser', () => {
  it('reads a repeated shape with its regex once it has seen it twice', () => {
    const parser = createShapeParser();
    for (let step = 1; step <= 100; step++) expectSame(parser, progress(step));
    expect(parser.hits).toBe(98);
  });

  it('never learns a shape seen once, nor one that holds an array', () => {
    const parser = createShapeParser();
    for (let i = 0; i < 50; i++) expectSame(parser, JSON.stringify({ [`key${i}`]: i }));
    for (let i = 0; i < 50; i++) expectSame(parser, JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `${i}` }] } }));
    expect(parser.hits).toBe(0);
  });

  it('reads pretty-printed payloads with JSON.parse, as their text never matches a compact shape', () => {
    const parser = createShapeParser();
    for (let step = 1; step <= 20; step++) expectSame(parser, JSON.stringify(JSON.parse(progress(step)), null, 2));
    expect(parser.hits).toBe(0);
  });

  it('gives every JSON value the value JSON.parse gives, learned shape or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(scalar, { minLength: 64, maxLength: 64 }), (value, scalars) => {
        const text = JSON.stringify(value);
        const parser = taught(text);
        expectSame(parser, text);
        // The same structure with other scalars: where the shape still holds, the regex reads it.
        let next = 0;
        expectSame(parser, JSON.stringify(refill(value, () => scalars[next++ % scalars.length])));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.parse on every mutation of a learned text, malformed ones included', () => {
    const texts = fc.oneof(
      fc.integer({ min: 0, max: 1e6 }).map((step) => progress(step)),
      fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 5 }).map((o) => JSON.stringify({ jsonrpc: '2.0', method: 'm', params: o })),
    );
    const edit = fc.record({ at: fc.nat(), remove: fc.integer({ min: 0, max: 3 }), insert: fc.array(noise, { maxLength: 3 }) });
    fc.assert(
      fc.property(texts, fc.array(edit, { minLength: 1, maxLength: 4 }), (text, edits) => {
        const parser = taught(text);
        let mutated = text;
        for (const { at, remove, insert } of edits) {
          const where = at % (mutated.length + 1);
          mutated = mutated.slice(0, where) + insert.join('') + mutated.slice(where + remove);
        }
        expectSame(parser, mutated);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads escapes, unpaired surrogates, -0 and out-of-range numbers as JSON.parse does', () => {
    const parser = taught(progress(1));
    for (const message of ['a"b', 'back\\slash', 'tab\there', '\u0001', '\uD800', '\uDC00x', 'é€😀', '\u2028']) expectSame(parser, progress(2, message));
    for (const number of ['-0', '1e400', '-1E-400', '0.1e+2', '123456789012345678901234567890']) {
      expectSame(parser, progress(3).replace('"progress":3', `"progress":${number}`));
    }
    // Grammar JSON.parse rejects must not slip through the regex either.
    for (const bad of ['01', '1.', '.5', '+1', '0x10', '1e', 'NaN', 'Infinity']) {
      expectSame(parser, progress(4).replace('"progress":4', `"progress":${bad}`));
    }
    for (const escape of ['\\x41', '\\u12', '\\U0041', '\\a', '\\u004G']) expectSame(parser, progress(5).replace('step 5', escape));
    expect(parser.hits).toBeGreaterThanOrEqual(13);
  });

  it('keeps __proto__ an own property, as JSON.parse does', () => {
    const text = '{"jsonrpc":"2.0","method":"m","params":{"__proto__":{"polluted":true}}}';
    const parser = taught(text);
    expectSame(parser, text);
    const value = parser.parse(text) as { params: object };
    expect(Object.getPrototypeOf(value.params)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('stays correct when more shapes rotate than it keeps', () => {
    const parser = createShapeParser();
    for (let round = 0; round < 20; round++) {
      for (let kind = 0; kind < 7; kind++) expectSame(parser, JSON.stringify({ jsonrpc: '2.0', method: `m${kind}`, params: { n: round } }));
    }
  });

  it('fails a long malformed string in one pass, not by backtracking', () => {
    const parser = taught(progress(1));
    // A control character at the very end: the regex must reject it after reading the string once.
    const text = progress(2, `${'x'.repeat(1_000_000)}\u0001`);
    expectSame(parser, text);
    expectSame(parser, progress(3, '\\'.repeat(200_001)));
  });
});

describe('numberOf', () => {
  it('reads every JSON number text exactly as JSON.parse does, -0 and long integers included', () => {
    const text = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
      fc.constantFrom('0', '-0', '1e5', '-2.50', '9007199254740993', '123456789012345', '1234567890123456', '-999999999999999'),
    );
    fc.assert(fc.property(text, (raw) => Object.is(numberOf(raw), JSON.parse(raw))), { numRuns: 2000 });
  });
});
