import { describe, expect, it } from 'vitest';
import { classify, type RpcMessage } from './jsonrpc';
import { isJsonPointer, resolvePointer, sequenceOf } from './sequence';

const message = (value: unknown): RpcMessage => {
  const c = classify(value);
  if (!('messages' in c)) throw new Error(c.problem);
  return c.messages[0]!;
};

describe('application sequence', () => {
  it.each([
    ['top level', { jsonrpc: '2.0', method: 'm', app_seq: 4 }],
    ['params', { jsonrpc: '2.0', method: 'm', params: { app_seq: 4 } }],
    ['params._meta', { jsonrpc: '2.0', method: 'm', params: { _meta: { app_seq: 4 } } }],
    ['result._meta', { jsonrpc: '2.0', id: 1, result: { _meta: { app_seq: 4 } } }],
  ])('reads app_seq at %s', (_where, value) => {
    expect(sequenceOf(message(value), [])).toEqual({ key: 'app_seq', value: 4, kind: 'app_seq' });
  });

  it('prefers app_seq over progress, and keys progress per token', () => {
    const both = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 3, _meta: { app_seq: 9 } } };
    expect(sequenceOf(message(both), [])?.key).toBe('app_seq');
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 0.5 } };
    expect(sequenceOf(message(progress), [])).toEqual({ key: 'progress:7', value: 0.5, kind: 'progress' });
  });

  it('falls back to user JSON pointers, and ignores non-integers there', () => {
    const value = { jsonrpc: '2.0', method: 'm', params: { data: { 'a/b': { seq: 12 }, f: 1.5 } } };
    expect(sequenceOf(message(value), ['/params/data/a~1b/seq'])).toEqual({ key: 'ptr:/params/data/a~1b/seq', value: 12, kind: 'pointer' });
    expect(sequenceOf(message(value), ['/params/data/f'])).toBeUndefined();
  });

  it('resolves RFC 6901 pointers, arrays included, and rejects bad ones', () => {
    expect(resolvePointer({ a: [{ b: 1 }] }, '/a/0/b')).toBe(1);
    expect(resolvePointer({ a: [1] }, '/a/01')).toBeUndefined();
    expect(resolvePointer({ '~': 2 }, '/~0')).toBe(2);
    expect(isJsonPointer('params/x')).toBe(false);
    expect(isJsonPointer('/a~2')).toBe(false);
  });
});
