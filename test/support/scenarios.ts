/**
 * Named MCP traffic scenarios, one per analysis rule, built from the generators. Each is the
 * smallest capture that shows its fault: a tool call streaming progress (with `app_seq`), a reset,
 * and what the resume brought back.
 */
import type { Exchange } from '../../src/core/model';
import { exchange, ORIGIN, resume, rpc, sse, type SseSpec } from './fixtures';

const S = 'session-a';

/** Progress 1..n on token `tok-1`, app_seq = progress, ids `${prefix}n` (or integers). */
function progressBlocks(from: number, to: number, id: (n: number) => string | number): SseSpec[] {
  const blocks: SseSpec[] = [];
  for (let n = from; n <= to; n++) blocks.push({ id: id(n), data: rpc.progress('tok-1', n, n) });
  return blocks;
}
const sdkId = (n: number) => `stream1_${1_700_000_000_000 + n}_r${n}`;

/** initialize + a tool call whose stream is reset after progress 1..`until`. */
function interruptedCall(until: number, id: (n: number) => string | number = sdkId): Exchange[] {
  return [
    exchange({
      body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      responseHeaders: [{ name: 'mcp-session-id', value: S }],
      text: sse([{ id: id(0), data: '' }, { data: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } } }]),
    }),
    exchange({ session: S, body: rpc.call(1), text: sse(progressBlocks(1, until, id)), end: 'reset' }),
  ];
}

export const scenarios = {
  genuine: (): Exchange[] => [
    ...interruptedCall(17),
    resume(S, sdkId(17), { text: sse([...progressBlocks(18, 20, sdkId), { id: sdkId(21), data: rpc.result(1, 21) }]) }),
  ],
  /** The field report: the resume lands on a replica without the buffer that invents the rest. */
  lostBuffer: (): Exchange[] => [
    ...interruptedCall(17),
    resume(S, sdkId(17), { text: sse([{ id: sdkId(18), data: rpc.progress('tok-1', 31, 31) }, { id: sdkId(19), data: rpc.result(1, 32, { stop_reason: 'end_turn' }) }]) }),
  ],
  duplicate: (): Exchange[] => [
    ...interruptedCall(17),
    resume(S, sdkId(17), { text: sse([...progressBlocks(15, 20, sdkId), { id: sdkId(21), data: rpc.result(1, 21) }]) }),
  ],
  empty: (): Exchange[] => [...interruptedCall(17), resume(S, sdkId(17), { text: ': keep-alive\n\n: keep-alive\n\n' })],
  rejected: (): Exchange[] => [
    ...interruptedCall(17),
    resume(S, sdkId(17), { status: 409, contentType: 'application/json', text: '{"error":"resume_unavailable"}' }),
    exchange({ session: S, body: rpc.call(2, 'long_task', 'tok-2'), text: sse([{ id: 'x1', data: rpc.progress('tok-2', 1, 1) }, { id: 'x2', data: rpc.result(2, 2) }]) }),
  ],
  expired: (): Exchange[] => [...interruptedCall(17), resume(S, sdkId(17), { status: 404, contentType: 'application/json', text: '{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}' })],
  unknownId: (): Exchange[] => [
    ...interruptedCall(17),
    resume(S, 'never-sent', { text: sse([...progressBlocks(18, 20, sdkId), { id: sdkId(21), data: rpc.result(1, 21) }]) }),
  ],
  /** No app_seq, no progress: nothing proves the replay continues the stream. */
  unverifiable: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'e1', data: rpc.message('working') }, { id: 'e2', data: rpc.message('still working') }]), end: 'reset' }),
    resume(S, 'e2', { text: sse([{ id: 'e3', data: rpc.message('more') }, { id: 'e4', data: { jsonrpc: '2.0', id: 1, result: { content: [] } } }]) }),
  ],
  /** A terminal result right after Last-Event-ID, with no sequence to vouch for it. */
  terminalUnproven: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'e1', data: rpc.message('working') }]), end: 'reset' }),
    resume(S, 'e1', { text: sse([{ id: 'e2', data: { jsonrpc: '2.0', id: 1, result: { content: [] } } }]) }),
  ],
  tokenMismatch: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'e1', data: { ...rpc.message('a'), resume_token: 'head-1' } }]), end: 'reset' }),
    resume(S, 'e1', { text: sse([{ id: 'e2', data: { ...rpc.message('b'), resume_token: 'head-9' } }, { id: 'e3', data: rpc.result(1) }]) }),
  ],
  tokenMatch: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'e1', data: { ...rpc.message('a'), resume_token: 'head-1' } }]), end: 'reset' }),
    resume(S, 'e1', { text: sse([{ id: 'e2', data: { ...rpc.message('b'), resume_token: 'head-1' } }, { id: 'e3', data: rpc.result(1) }]) }),
  ],
  /** Integer ids from one session-wide counter, interleaved with a sibling stream: no gap. */
  interleavedIds: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 1, data: rpc.progress('tok-1', 1, 1) }, { id: 3, data: rpc.progress('tok-1', 2, 2) }]), end: 'reset' }),
    exchange({ session: S, body: rpc.call(2, 'other', 'tok-2'), text: sse([{ id: 2, data: rpc.progress('tok-2', 1) }, { id: 4, data: rpc.result(2) }]) }),
    resume(S, 3, { text: sse([{ id: 5, data: rpc.progress('tok-1', 3, 3) }, { id: 6, data: rpc.result(1, 4) }]) }),
  ],
  idGap: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 1, data: rpc.progress('tok-1', 1, 1) }, { id: 2, data: rpc.progress('tok-1', 2, 2) }]), end: 'reset' }),
    resume(S, 2, { text: sse([{ id: 9, data: rpc.progress('tok-1', 3, 3) }, { id: 10, data: rpc.result(1, 4) }]) }),
  ],
  crossStream: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse(progressBlocks(1, 3, sdkId)), end: 'reset' }),
    exchange({ session: S, body: rpc.call(2, 'other', 'tok-2'), text: sse([{ id: 'o1', data: rpc.progress('tok-2', 1) }]), end: 'open' }),
    resume(S, sdkId(3), { text: sse([{ id: sdkId(4), data: rpc.progress('tok-1', 4, 4) }, { id: sdkId(5), data: rpc.result(2) }]) }),
  ],
  missingLastEventId: (): Exchange[] => [
    ...interruptedCall(5),
    exchange({ method: 'GET', session: S, text: sse([{ id: sdkId(6), data: rpc.progress('tok-1', 6, 6) }]), start: 1_700_000_001_000 }),
  ],
  resultLost: (): Exchange[] => [...interruptedCall(5)],
  stateless: (): Exchange[] => [
    exchange({ body: rpc.call(1), headers: [{ name: 'MCP-Protocol-Version', value: '2026-07-28' }, { name: 'Mcp-Method', value: 'tools/call' }], text: sse([{ id: 'a1', data: rpc.progress('tok-1', 1, 1) }]), end: 'reset' }),
    exchange({ method: 'GET', headers: [{ name: 'MCP-Protocol-Version', value: '2026-07-28' }, { name: 'Last-Event-ID', value: 'a1' }], status: 405, contentType: 'text/plain', text: 'Method Not Allowed' }),
  ],
  duplicateIds: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'same', data: rpc.progress('tok-1', 1, 1) }, { id: 'same', data: rpc.progress('tok-1', 2, 2) }, { id: 'z', data: rpc.result(1, 3) }]) }),
  ],
  liveSeqGap: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'a', data: rpc.progress('tok-1', 1, 1) }, { id: 'b', data: rpc.progress('tok-1', 2, 5) }, { id: 'c', data: rpc.result(1, 6) }]) }),
  ],
  progressRegress: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'a', data: rpc.progress('tok-1', 5) }, { id: 'b', data: rpc.progress('tok-1', 3) }, { id: 'c', data: rpc.result(1) }]) }),
  ],
  malformed: (): Exchange[] => [
    exchange({ session: S, body: rpc.call(1), text: sse([{ id: 'a', data: 'not json' }, { id: 'b', data: { hello: 1 } }, { id: 'c', data: rpc.result(1) }]) }),
  ],
  /** The 2024-11-05 HTTP+SSE transport: an endpoint event, POSTs answered 202, replies on the GET. */
  legacy: (): Exchange[] => [
    exchange({ method: 'GET', url: `${ORIGIN}/sse`, text: sse([{ event: 'endpoint', data: '/messages?sessionId=legacy-1' }, { event: 'message', data: rpc.result(1) }]) }),
    exchange({ url: `${ORIGIN}/messages?sessionId=legacy-1`, body: rpc.call(1), status: 202, contentType: 'text/plain', text: 'Accepted' }),
  ],
};

export type ScenarioName = keyof typeof scenarios;
