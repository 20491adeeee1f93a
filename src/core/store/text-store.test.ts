import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextStore } from './text-store';

/** Stores every text and reads them all back; -1 marks one the store declined. */
function roundTrip(texts: readonly string[]): (string | -1)[] {
  const store = new TextStore();
  const placed = texts.map((text) => {
    const at = store.add(text);
    return { at, bytes: store.size - at };
  });
  return placed.map(({ at, bytes }) => (at < 0 ? -1 : store.text(at, bytes)));
}

describe('TextStore', () => {
  it('gives back every well-formed text exactly, across many blocks', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { maxLength: 400 }), (texts) => {
        expect(roundTrip(texts)).toEqual(texts);
      }),
      { numRuns: 200 },
    );
  });

  it('fills blocks past their first size, and a text larger than the largest block', () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => `{"step":${i},"é":"€😀"}`);
    texts.push('x'.repeat(3 * 1024 * 1024), 'after');
    expect(roundTrip(texts)).toEqual(texts);
  });

  it('declines a text with a lone surrogate, which UTF-8 cannot hold, and stores the next one', () => {
    expect(roundTrip(['a', '\uD800', 'b\uDC00', '😀', ''])).toEqual(['a', -1, -1, '😀', '']);
  });

  it('reads texts from borrowed chunks, bytes or strings, between stored ones; the last chunk borrowed keeps its place', () => {
    const store = new TextStore();
    const first = store.add('own text');
    const bytes = new TextEncoder().encode('id: 1\ndata: {"a":1}\n\n');
    const at = store.borrow(bytes);
    expect(store.borrow(bytes)).toBe(at);
    const chunk = 'event: message\ndata: {"é":"😀"}\n\n';
    const stringAt = store.borrow(chunk);
    expect(store.text(at + 4, 1)).toBe('1');
    expect(store.text(at + 12, 7)).toBe('{"a":1}');
    expect(store.text(stringAt + 21, 10)).toBe('{"é":"😀"}');
    expect(store.text(first, 8)).toBe('own text');
  });
});
