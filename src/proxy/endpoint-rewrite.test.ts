import { describe, expect, it } from 'vitest';
import { createEndpointRewriter, endpointMapper } from './endpoint-rewrite';
import { MAX_ENDPOINT_HOLD_BYTES } from './caps';
import { parseTargets, type Target } from './targets';

const [target] = parseTargets(['legacy=http://127.0.0.1:3000/sse']) as Target[];
const map = endpointMapper(target!, 'http://127.0.0.1:3000/sse', 'http://127.0.0.1:8808');

/** Feeds `text` in pieces of `size` bytes; returns what would be sent. */
function through(text: string, size: number): { out: string; outcome: string } {
  const rewriter = createEndpointRewriter(map);
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(rewriter.push(bytes.subarray(at, at + size)));
  parts.push(rewriter.flush());
  return { out: Buffer.concat(parts).toString(), outcome: rewriter.outcome };
}

describe('the legacy endpoint rewrite', () => {
  it('puts a relative endpoint under the prefix, in any chunking, and leaves the rest alone', () => {
    const stream = 'event: endpoint\r\ndata: /messages?sessionId=abc\r\n\r\nevent: message\ndata: {"jsonrpc":"2.0"}\n\n';
    for (const size of [1, 2, 7, 1000]) {
      expect(through(stream, size)).toEqual({ out: stream.replace('/messages', '/legacy/messages'), outcome: 'rewritten' });
    }
  });

  it('maps an absolute endpoint on the target to the proxy, and one elsewhere not at all', () => {
    expect(map('http://127.0.0.1:3000/messages?sessionId=1')).toBe('http://127.0.0.1:8808/legacy/messages?sessionId=1');
    expect(map('http://elsewhere.invalid/messages')).toBe('http://elsewhere.invalid/messages');
  });

  it('passes a stream that does not open with an endpoint event unchanged', () => {
    const stream = 'id: 1\ndata: {"event: endpoint":1}\n\nevent: endpoint\ndata: /x\n\n';
    expect(through(stream, 3)).toEqual({ out: stream, outcome: 'not-endpoint' });
  });

  it('gives up, unchanged, on a first event longer than its cap', () => {
    const stream = `event: endpoint\ndata: /${'x'.repeat(MAX_ENDPOINT_HOLD_BYTES)}\n\n`;
    expect(through(stream, 4096)).toEqual({ out: stream, outcome: 'gave-up' });
  });
});
