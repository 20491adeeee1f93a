import { describe, expect, it } from 'vitest';
import { classify } from './jsonrpc';

const roles = (value: unknown) => {
  const c = classify(value);
  return 'messages' in c ? c.messages.map((m) => m.role) : c.problem;
};

describe('JSON-RPC classification', () => {
  it('tells request, notification, progress, result and error apart', () => {
    expect(roles({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })).toEqual(['request']);
    expect(roles({ jsonrpc: '2.0', method: 'notifications/message', params: {} })).toEqual(['notification']);
    expect(roles({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } })).toEqual(['progress']);
    expect(roles({ jsonrpc: '2.0', id: 'a', result: {} })).toEqual(['result']);
    expect(roles({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'x' } })).toEqual(['error']);
    expect(roles([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', method: 'n' }])).toEqual(['result', 'notification']);
  });

  it('keys ids so that 1 and "1" never pair with each other', () => {
    const number = classify({ jsonrpc: '2.0', id: 1, result: {} });
    const string = classify({ jsonrpc: '2.0', id: '1', result: {} });
    expect('messages' in number && number.messages[0]!.idKey).toBe('1');
    expect('messages' in string && string.messages[0]!.idKey).toBe('"1"');
  });

  it('explains what is not JSON-RPC', () => {
    expect(roles({ hello: 1 })).toBe('a JSON object without "jsonrpc": "2.0"');
    expect(roles(42)).toBe('JSON that is not a JSON-RPC object');
    expect(roles([])).toBe('an empty JSON-RPC batch');
    expect(roles({ jsonrpc: '2.0', id: 1 })).toBe('a JSON-RPC object with neither method, result nor error');
  });
});
