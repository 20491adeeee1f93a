import { describe, expect, it } from 'vitest';
import { createFactReader } from './facts';

const read = (value: unknown, pointers: string[] = []) => createFactReader(pointers)(value, JSON.stringify(value));

describe('the general reader: facts from a parsed payload', () => {
  it.each([
    ['top level', { jsonrpc: '2.0', method: 'm', app_seq: 4 }],
    ['params', { jsonrpc: '2.0', method: 'm', params: { app_seq: 4 } }],
    ['params._meta', { jsonrpc: '2.0', method: 'm', params: { _meta: { app_seq: 4 } } }],
    ['result._meta', { jsonrpc: '2.0', id: 1, result: { _meta: { app_seq: 4 } } }],
  ])('reads app_seq at %s', (_where, value) => {
    expect(read(value).seq).toEqual({ key: 'app_seq', value: 4, kind: 'app_seq' });
  });

  it('prefers app_seq over progress, and keys progress per token', () => {
    const both = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 3, _meta: { app_seq: 9 } } };
    expect(read(both).seq?.key).toBe('app_seq');
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 7, progress: 0.5 } };
    expect(read(progress)).toMatchObject({ role: 'progress', progressToken: '7', seq: { key: 'progress:7', value: 0.5, kind: 'progress' } });
  });

  it('falls back to user JSON pointers, and ignores non-integers and invalid pointers there', () => {
    const value = { jsonrpc: '2.0', method: 'm', params: { data: { 'a/b': { seq: 12 }, f: 1.5, list: [5] } } };
    expect(read(value, ['/params/data/a~1b/seq']).seq).toEqual({ key: 'ptr:/params/data/a~1b/seq', value: 12, kind: 'pointer' });
    expect(read(value, ['/params/data/f']).seq).toBeUndefined();
    expect(read(value, ['/params/data/list/0']).seq?.value).toBe(5);
    expect(read(value, ['params/data/f', '/a~2']).seq).toBeUndefined();
  });

  it('finds stop reasons in results and in notifications/message data, and no other word', () => {
    expect(read({ jsonrpc: '2.0', id: 1, result: { stopReason: 'endTurn' } }).stopReason).toBe('endTurn');
    expect(read({ jsonrpc: '2.0', method: 'notifications/message', params: { data: { stop_reason: 'end_turn' } } }).stopReason).toBe('end_turn');
    expect(read({ jsonrpc: '2.0', id: 1, result: { stopReason: 'paused' } }).stopReason).toBeUndefined();
    // A message with a method says it in its params, never in a result beside them.
    expect(read({ jsonrpc: '2.0', method: 'm', result: { stop_reason: 'end_turn' } }).stopReason).toBeUndefined();
  });

  it('reads the revision of an initialize result only, and the resume token', () => {
    expect(read({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', serverInfo: { name: 's' } } }).protocolVersion).toBe('2025-11-25');
    expect(read({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25' } }).protocolVersion).toBeUndefined();
    expect(read({ jsonrpc: '2.0', method: 'm', params: { _meta: { resume_token: 'h1' } } }).resumeToken).toBe('h1');
    expect(read({ jsonrpc: '2.0', method: 'm', params: { _meta: { resume_token: '' } } }).resumeToken).toBeUndefined();
  });

  it('takes role, method and id from the first message of a batch, and the answers of the rest', () => {
    const facts = read([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', method: 'n', app_seq: 3 }, { jsonrpc: '2.0', id: 'x', error: { code: 1 } }]);
    expect(facts).toMatchObject({ role: 'result', idKey: '1', seq: { value: 3 }, batchAnswers: ['"x"'] });
  });

  it('says why data is not a message, and notices U+FFFD', () => {
    expect(read({ hello: 1 })).toMatchObject({ role: 'malformed', problem: 'data is a JSON object without "jsonrpc": "2.0": "{\\"hello\\":1}"' });
    expect(read({ jsonrpc: '2.0', method: 'm', params: { text: '\uFFFD' } }).replacement).toBe(true);
    expect(read({ jsonrpc: '2.0', method: 'm' }).replacement).toBe(false);
  });
});
