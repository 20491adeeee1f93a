import { describe, expect, it } from 'vitest';
import type { StreamReport } from '../../core/index';
import { sentMessages } from './request-info';
import { streamLabel } from './stream-labels';

const stream = (fields: Partial<StreamReport>): StreamReport => ({ index: 3, method: 'POST', url: 'http://h/mcp', status: 200, lastEventId: null, resumes: null, events: 0, end: 'complete', ...fields });
const body = (value: unknown) => sentMessages(JSON.stringify(value));

describe('stream labels', () => {
  it('say what a stream carries: the method, the tool and the request id', () => {
    expect(streamLabel(stream({}), body({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'long_task' } }), 'streamable-http')).toBe('tools/call long_task · id 1');
    expect(streamLabel(stream({}), body({ jsonrpc: '2.0', id: 'a', method: 'initialize', params: {} }), 'streamable-http')).toBe('initialize · id a');
    expect(streamLabel(stream({}), body({ jsonrpc: '2.0', method: 'notifications/initialized' }), 'streamable-http')).toBe('notifications/initialized');
    expect(streamLabel(stream({}), body({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'file:///a' } }), 'streamable-http')).toBe('resources/read file:///a · id 7');
    expect(streamLabel(stream({}), body([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]), 'streamable-http')).toBe('batch of 2: ping · id 1, …');
    expect(streamLabel(stream({}), body({ jsonrpc: '2.0', id: 4, result: {} }), 'streamable-http')).toBe('response · id 4');
  });

  it('name resumes, standalone GETs, session ends and bodies that are not JSON-RPC', () => {
    expect(streamLabel(stream({ method: 'GET', lastEventId: 'x', resumes: 2 }), [], 'streamable-http')).toBe('resume of #2');
    expect(streamLabel(stream({ method: 'GET', lastEventId: 'x', resumes: null }), [], 'streamable-http')).toBe('resume from an id never delivered');
    expect(streamLabel(stream({ method: 'GET' }), [], 'streamable-http')).toBe('standalone GET');
    expect(streamLabel(stream({ method: 'GET' }), [], 'http+sse')).toBe('HTTP+SSE event stream');
    expect(streamLabel(stream({ method: 'DELETE' }), [], 'streamable-http')).toBe('DELETE session');
    expect(streamLabel(stream({}), sentMessages('not json'), 'streamable-http')).toBe('POST (no JSON-RPC body)');
  });

  it('show hostile names as text, clipped, hidden characters visible', () => {
    const label = streamLabel(stream({}), body({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: `evil\u202E${'x'.repeat(100)}` } }), 'streamable-http');
    expect(label).toContain('evil⟨U+202E⟩');
    expect(label.length).toBeLessThan(120);
  });
});
