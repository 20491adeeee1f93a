import { describe, expect, it } from 'vitest';
import { clip, shortId, visibleLine, visibleText } from '../text/visible';
import { curlOf } from './curl';
import { prettyJson, rawSse } from './raw-sse';
import type { EventRecord } from '../../core/index';

const record = (fields: Partial<EventRecord>): EventRecord => ({
  time: 0, id: undefined, event: undefined, data: '', retry: undefined, idOnly: undefined, truncated: undefined, role: 'empty',
  method: undefined, idKey: undefined, seq: undefined, progressToken: undefined, stopReason: undefined, resumeToken: undefined, ...fields,
});

describe('event detail helpers', () => {
  it('writes the event back as SSE, multi-line data as several data lines', () => {
    expect(rawSse(record({ event: 'message', id: '7', retry: 500, data: 'a\nb' }))).toBe('event: message\nid: 7\nretry: 500\ndata: a\ndata: b\n');
    expect(rawSse(record({ id: '8', idOnly: true }))).toBe('id: 8\n');
  });

  it('pretty-prints JSON and leaves other data alone', () => {
    expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyJson('not json')).toBeUndefined();
  });

  it('quotes every header and body for the shell, whatever they hold', () => {
    const curl = curlOf({ method: 'POST', url: 'http://h/mcp', startTime: 0, body: `{"q":"it's $(rm -rf /)"}`, headers: [{ name: 'Host', value: 'h' }, { name: 'Mcp-Session-Id', value: "a'b" }] });
    expect(curl).toBe(`curl -N 'http://h/mcp' -X 'POST' -H 'Mcp-Session-Id: a'\\''b' --data-raw '{"q":"it'\\''s $(rm -rf /)"}'`);
  });

  it('shows hidden characters instead of applying them', () => {
    expect(visibleLine('a\u202Eb\nc\u0000')).toBe('a⟨U+202E⟩b↵c⟨U+0000⟩');
    expect(visibleText('a\nb\u2066')).toBe('a\nb⟨U+2066⟩');
    expect(clip('abcdef', 3)).toBe('abc… (3 chars more)');
    expect(shortId('1c28c03c-ab7e-424f-96e0-3145dfcf1e0a_1796092495938_fwqca0gk', 8)).toBe('…fwqca0gk');
  });
});
