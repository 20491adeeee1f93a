import { mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCounters } from './caps';
import { createRecording, type RecordingEvent } from './recording';
import { openSpool, spoolOn, type Spool } from './spool';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const request = { method: 'GET', url: 'http://127.0.0.1/mcp', headers: [], startTime: 1 };
const sse = { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }] };

const opened: Spool[] = [];
afterEach(() => {
  for (const spool of opened.splice(0)) spool.close();
});
const fresh = (spool: Spool = openSpool()) => (opened.push(spool), spool);

describe('the spool', () => {
  it('leaves no name on disk, and reads back what was appended where it was appended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spool-test-'));
    try {
      const spool = fresh(openSpool(dir));
      expect(readdirSync(dir)).toEqual([]);
      expect(spool.append(bytes('id: 1\n\n'))).toBe(0);
      expect(spool.append(bytes('data: é\n\n'))).toBe(7);
      expect(spool.size).toBe(17);
      expect(text(spool.read(7, 10))).toBe('data: é\n\n');
      expect(() => spool.read(10, 10)).toThrow(/ended at 17 of 20/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('says what the file system said when a write is refused, and keeps its size', () => {
    // /dev/full refuses every write with ENOSPC, as a full disk does.
    const spool = fresh(spoolOn(openSync('/dev/full', 'r+')));
    expect(() => spool.append(bytes('x'))).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(spool.size).toBe(0);
  });
});

describe('the recording', () => {
  it('keeps interleaved bodies in the spool, and gives each back whole, in replay and after a point', () => {
    const recording = createRecording(createCounters(), fresh());
    const heard: RecordingEvent[] = [];
    recording.subscribe((event) => heard.push(event));
    const a = recording.start(request)!;
    const b = recording.start(request)!;
    recording.respond(a, sse);
    recording.respond(b, sse);
    recording.chunk(a, bytes('id: 1\ndata: {}\n\n'), 10);
    recording.chunk(b, bytes('id: 7\n'), 11);
    recording.chunk(a, bytes('id: 2\ndata: {}\n\n'), 12);
    recording.chunk(b, bytes('data: {}\n\n'), 13);
    recording.end(a, { state: 'complete', time: 14 });

    expect(heard.filter((e) => e.kind === 'chunk').map((e) => [e.rec.index, e.at])).toEqual([[0, 0], [1, 16], [0, 22], [1, 38]]);
    const [first, second] = recording.exchanges();
    expect(first!.chunks.map((c) => [c.time, text(c.data as Uint8Array)])).toEqual([[10, 'id: 1\ndata: {}\n\n'], [12, 'id: 2\ndata: {}\n\n']]);
    expect(second!.chunks.map((c) => text(c.data as Uint8Array)).join('')).toBe('id: 7\ndata: {}\n\n');
    expect(first!.end.state).toBe('complete');

    const replayed: string[] = [];
    recording.replay((e) => void (e.kind === 'chunk' && replayed.push(text(e.data))));
    expect(replayed.join('')).toBe('id: 1\ndata: {}\n\nid: 2\ndata: {}\n\nid: 7\ndata: {}\n\n');

    // After b's first chunk: a's second chunk and end, b's second; b's first is its decoder's state.
    const since = recording.since(b.seqs.chunks[0]!);
    expect(since.events.map((e) => e.kind + (e.kind === 'chunk' ? ` ${text(e.data)}` : ''))).toEqual(['chunk id: 2\ndata: {}\n\n', 'chunk data: {}\n\n', 'end']);
    expect(since.before.map(({ rec, data }) => [rec.index, text(data)])).toEqual([[0, 'id: 1\ndata: {}\n\n'], [1, 'id: 7\n']]);
  });

  it('clips a body whose bytes the spool refuses, counts it, and says why where the stream ends', () => {
    const counters = createCounters();
    const recording = createRecording(counters, fresh(spoolOn(openSync('/dev/full', 'r+'))));
    const heard: RecordingEvent[] = [];
    recording.subscribe((event) => heard.push(event));
    const rec = recording.start(request)!;
    recording.respond(rec, sse);
    recording.chunk(rec, bytes('id: 1\n\n'), 10);
    recording.chunk(rec, bytes('id: 2\n\n'), 11);
    recording.end(rec, { state: 'complete', time: 12 });

    expect(heard.map((e) => e.kind)).toEqual(['open', 'response', 'end']);
    expect(counters).toMatchObject({ recordingFileErrors: 1, streamsClipped: 1, bytesNotRecorded: 14 });
    const [exchange] = recording.exchanges();
    expect(exchange!.chunks).toEqual([]);
    // What was not kept is not evidence: the end is not called complete.
    expect(exchange!.end).toMatchObject({ state: 'unknown', bodyClipped: expect.stringMatching(/first 0 bytes .*refused the rest: ENOSPC.*ended normally/) });
  });
});
