import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createCallBook, MAX_PENDING_CALLS } from './calls';

const call = (id: number, token?: number): JSONRPCRequest => ({
  jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'long_task', arguments: { steps: 3 }, ...(token !== undefined && { _meta: { progressToken: token } }) },
});
const progress = (token: string | number, value: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value } });
const result = (id: string | number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });

describe('the call book renames a re-issued call back to the client\'s own', () => {
  it('a re-issue goes out with a new id and token, the same arguments, and its replies come back as the first call', () => {
    const book = createCallBook();
    book.sent(call(7, 7));
    const again = book.reissue(book.byWireId(7)!);
    expect(again).toEqual({ jsonrpc: '2.0', id: '7/reissue-1', method: 'tools/call', params: { name: 'long_task', arguments: { steps: 3 }, _meta: { progressToken: '7/reissue-1' } } });
    expect(book.incoming(progress('7/reissue-1', 1))?.message).toEqual(progress(7, 1));
    expect(book.incoming(result('7/reissue-1'))?.message).toEqual(result(7));
    // Settled: a second answer is not the book's business any more.
    expect(book.byWireId('7/reissue-1')).toBeUndefined();
  });

  it('drops what still arrives for the abandoned attempt, and counts it', () => {
    const book = createCallBook();
    book.sent(call(1, 1));
    book.reissue(book.byWireId(1)!);
    expect(book.incoming(progress(1, 6))).toBeUndefined();
    expect(book.incoming(result(1))).toBeUndefined();
    expect(book.stats().droppedStale).toBe(2);
    expect(book.incoming(result('1/reissue-1'))?.message).toEqual(result(1));
  });

  it('a call sent without progress gets no token on re-issue; replies of other calls pass unchanged', () => {
    const book = createCallBook();
    book.sent(call(2));
    expect(book.reissue(book.byWireId(2)!).params).toEqual({ name: 'long_task', arguments: { steps: 3 } });
    const other = result(99);
    expect(book.incoming(other)?.message).toBe(other);
    expect(book.incoming(progress('unknown', 1))?.message).toEqual(progress('unknown', 1));
  });

  it("the client's cancellation of a re-issued call names the id on the wire", () => {
    const book = createCallBook();
    book.sent(call(3, 3));
    book.reissue(book.byWireId(3)!);
    const cancel: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'timeout' } };
    expect(book.outgoing(cancel)).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '3/reissue-1', reason: 'timeout' } });
  });

  it(`keeps at most ${MAX_PENDING_CALLS} calls and counts those it forgets`, () => {
    const book = createCallBook();
    for (let id = 0; id < MAX_PENDING_CALLS + 3; id++) book.sent(call(id, id));
    expect(book.stats().forgottenCalls).toBe(3);
    expect(book.byWireId(0)).toBeUndefined();
    expect(book.byWireId(MAX_PENDING_CALLS + 2)).toBeDefined();
  });
});
