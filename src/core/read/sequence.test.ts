import { describe, expect, it } from 'vitest';
import { isJsonPointer, resolvePointer } from './sequence';

describe('JSON pointers', () => {
  it('resolves RFC 6901 pointers, arrays included, and rejects bad ones', () => {
    expect(resolvePointer({ a: [{ b: 1 }] }, '/a/0/b')).toBe(1);
    expect(resolvePointer({ a: [1] }, '/a/01')).toBeUndefined();
    expect(resolvePointer({ '~': 2 }, '/~0')).toBe(2);
    expect(isJsonPointer('params/x')).toBe(false);
    expect(isJsonPointer('/a~2')).toBe(false);
  });
});
