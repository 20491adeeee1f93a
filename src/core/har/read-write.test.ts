import { describe, expect, it } from 'vitest';
import { analyze, readHar, writeHar, type Exchange } from '../index';
import { exchange, prng, rechunk, resume, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';

const read = (value: unknown): Exchange[] => {
  const result = readHar(JSON.stringify(value));
  if (!result.ok) throw new Error(result.reason);
  return result.exchanges;
};
const entry = (overrides: Record<string, unknown>, response: Record<string, unknown> = {}) => ({
  startedDateTime: '2026-11-12T10:00:00.000Z',
  time: 250,
  request: { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: [{ name: 'mcp-session-id', value: 's1' }], postData: { mimeType: 'application/json', text: JSON.stringify(rpc.call(1)) } },
  response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: 0, mimeType: 'text/event-stream' }, ...response },
  ...overrides,
});

describe('HAR in', () => {
  it('reads a Chrome reset entry: content without text and response._error', () => {
    const [ex] = read({ log: { version: '1.2', entries: [entry({}, { _error: 'net::ERR_CONNECTION_RESET', content: { size: 0, mimeType: 'text/event-stream' } })] } });
    expect(ex!.end).toMatchObject({ state: 'reset', error: 'net::ERR_CONNECTION_RESET' });
    expect(ex!.chunks).toEqual([]);
    expect(analyze([ex!]).sessions[0]!.streams[0]).toMatchObject({ end: 'reset', events: 0, error: 'net::ERR_CONNECTION_RESET' });
  });

  it('reads a Firefox-style partial body with a truncated last event, which is shown but not counted', () => {
    const text = `${sse([{ id: 'a', data: rpc.progress('tok-1', 1, 1) }])}id: b\ndata: {"jsonrpc":"2.0","meth`;
    const [ex] = read({ log: { entries: [entry({}, { _error: 'NS_ERROR_NET_RESET', content: { size: text.length, mimeType: 'text/event-stream', text } })] } });
    const report = analyze([ex!]);
    expect(report.sessions[0]!.streams[0]).toMatchObject({ events: 1, end: 'reset' });
    expect(report.sessions[0]!.findings.map((f) => f.code)).not.toContain('malformed-event');
  });

  it('decodes base64 bodies', () => {
    const text = sse([{ id: 'a', data: rpc.progress('tok-1', 1, 1) }, { id: 'b', data: rpc.result(1, 2) }]);
    const [ex] = read({ log: { entries: [entry({}, { content: { size: 1, mimeType: 'text/event-stream', text: btoa(text), encoding: 'base64' } })] } });
    expect(analyze([ex!]).sessions[0]!.streams[0]!.events).toBe(2);
  });

  it('accepts our _sse events when there is no body text', () => {
    const [ex] = read({ log: { entries: [entry({ _sse: [{ t: 5, id: 'a', data: JSON.stringify(rpc.progress('tok-1', 1, 1)) }, { t: 9, id: 'b', data: JSON.stringify(rpc.result(1, 2)) }] })] } });
    expect(ex!.chunks.map((c) => c.time - ex!.startTime)).toEqual([5, 9]);
    expect(analyze([ex!]).sessions[0]!.streams[0]!.events).toBe(2);
  });

  it('skips and counts entries with missing fields, never throwing', () => {
    const result = readHar(JSON.stringify({ log: { entries: [null, { request: {} }, { request: { method: 'GET', url: '/x', headers: [{ name: 1 }] } }, entry({ startedDateTime: 'nope' })] } }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skippedEntries).toBe(2);
    expect(result.exchanges).toHaveLength(2);
    expect(result.problems).toEqual(expect.arrayContaining([
      'entry 0: skipped: no request object',
      'entry 1: skipped: request without method or url',
      'entry 2: a header without string name and value was left out',
      'entry 3: startedDateTime missing or invalid; timing starts at 0',
    ]));
  });

  it('refuses what is not HAR with a one-line reason', () => {
    expect(readHar('{"log": {"entries": [')).toMatchObject({ ok: false, reason: expect.stringMatching(/^not valid JSON/) });
    expect(readHar('[1,2]')).toEqual({ ok: false, reason: 'not a HAR file: there is no "log" object' });
    expect(readHar('{"log":{}}')).toEqual({ ok: false, reason: 'not a HAR file: "log.entries" is not an array' });
  });
});

describe('HAR out', () => {
  it('round-trips every scenario, with live chunk timing, to the same report', () => {
    for (const make of Object.values(scenarios)) {
      const exchanges = rechunk(make(), prng(7), 40);
      const back = read(writeHar(exchanges, { redact: false }));
      expect(back.map((e) => e.chunks.map((c) => c.time))).toEqual(exchanges.map((e) => e.chunks.map((c) => c.time)));
      // The reader numbers each exchange by its entry (findings' evidence names it).
      expect(back.map((e) => e.entry)).toEqual(exchanges.map((_, i) => i));
      expect(analyze(back)).toEqual(analyze(exchanges.map((e, i) => ({ ...e, entry: i }))));
    }
  });

  it('keeps what the recorder did not see: an absent body reads back absent, with its reason, and an inferred end stays inferred', () => {
    const call = exchange({ session: 's1', body: rpc.call(1, 'tok-1'), text: sse([{ id: 'a', data: rpc.progress('tok-1', 1, 1) }]) });
    const absent: Exchange = { ...call, chunks: [], end: { state: 'complete', bodyAbsent: 'Chrome gives no body for a Worker\'s request' } };
    const cut: Exchange = { ...call, end: { state: 'reset', inferred: true } };
    const [absentBack, cutBack] = read(writeHar([absent, cut], { redact: false }));
    expect(absentBack!.end).toMatchObject({ state: 'complete', bodyAbsent: "Chrome gives no body for a Worker's request" });
    expect(cutBack!.end).toMatchObject({ state: 'reset', inferred: true });
    const [stream] = analyze([absentBack!]).sessions[0]!.streams;
    expect(stream).toMatchObject({ body: 'absent' });
  });

  it('writes HAR 1.2 with _sse events, and a reset as response._error', () => {
    const [, broken, again] = writeHar(scenarios.genuine()).log.entries;
    expect(broken!.response._error).toBe('net::ERR_CONNECTION_RESET');
    expect(broken!._sse).toHaveLength(17);
    expect(broken!._sse![0]).toMatchObject({ id: expect.any(String), data: expect.stringContaining('notifications/progress') });
    expect(again!.request.headers).toContainEqual({ name: 'Last-Event-ID', value: 'stream1_1700000000017_r17' });
  });

  it('redacts Authorization, Cookie and Set-Cookie by default, and only when asked otherwise', () => {
    const ex = exchange({
      session: 's',
      body: rpc.call(1),
      headers: [{ name: 'Authorization', value: 'Bearer secret' }, { name: 'cookie', value: 'a=b' }],
      responseHeaders: [{ name: 'Set-Cookie', value: 'sid=1' }],
    });
    const har = JSON.stringify(writeHar([ex]));
    expect(har).not.toMatch(/secret|a=b|sid=1/);
    expect(har).toContain('[redacted]');
    expect(JSON.stringify(writeHar([ex], { redact: false }))).toContain('Bearer secret');
    expect(JSON.stringify(writeHar([ex], { redact: ['mcp-session-id'] }))).toContain('Bearer secret');
  });

  it('keeps bodies that are not UTF-8 as base64', () => {
    const ex = resume('s', 'x', {});
    ex.chunks = [{ time: ex.startTime, data: new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xff, 0x0a, 0x0a]) }];
    const entry = writeHar([ex]).log.entries[0]!;
    expect(entry.response.content.encoding).toBe('base64');
    expect(read(writeHar([ex]))[0]!.chunks[0]!.data).toEqual(ex.chunks[0]!.data);
  });
});
