import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCounters, MAX_RECORDED_CHUNKS } from './caps';
import { createLiveAnalysis } from './live-analysis';
import { createRecording, type RecordingEvent } from './recording';
import { openSpool, SPOOL_STAGE_BYTES, spoolOn, type Spool } from './spool';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const request = { method: 'GET', url: 'http://127.0.0.1/mcp', headers: [], startTime: 1 };
const sse = { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }] };

const opened: Spool[] = [];
afterEach(() => {
  for (const spool of opened.splice(0)) spool.close();
});
const fresh = (spool: Spool = openSpool()) => (opened.push(spool), spool);

/**
 * A spool on a named pipe, which refuses both a positioned write and a positioned read (ESPIPE):
 * unlike /dev/full, whose reads give zeros, reading what it lost fails loudly.
 */
function unseekable(): Spool {
  const dir = mkdtempSync(join(tmpdir(), 'spool-fifo-'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  const fd = openSync(join(dir, 'fifo'), 'r+'); // read-write: Linux opens a FIFO so without waiting for a peer
  rmSync(dir, { recursive: true });
  return spoolOn(fd);
}

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

  it('stages small appends and writes large ones at once, each read back from its place', () => {
    const spool = fresh();
    const pieces = Array.from({ length: 3_000 }, (_, i) => bytes(`id: ${i}\ndata: ${'x'.repeat(i % 900)}\n\n`));
    const large = new Uint8Array(SPOOL_STAGE_BYTES + 5).fill(0x61);
    const places = [...pieces.slice(0, 1_500), large, ...pieces.slice(1_500)].map((piece) => [spool.append(piece), piece] as const);
    expect(spool.size).toBe(places.reduce((n, [, piece]) => n + piece.length, 0));
    for (const [at, piece] of places) expect(spool.read(at, piece.length).equals(piece)).toBe(true);
  });

  it('says what the file system said when a write is refused, and goes on placing what it can no longer keep', () => {
    // /dev/full refuses every write with ENOSPC, as a full disk does.
    const spool = fresh(spoolOn(openSync('/dev/full', 'r+')));
    expect(spool.append(bytes('id: 1\n\n'))).toBe(0);
    expect(spool.failure).toBeUndefined(); // staged, not written yet
    spool.flush();
    expect(spool.failure).toEqual({ at: 0, reason: 'ENOSPC' });
    expect(spool.append(bytes('id: 2\n\n'))).toBe(7);
    expect(spool.size).toBe(14);
    expect(() => spool.read(0, 7)).toThrow(/lost the bytes from 0 on \(ENOSPC\)/);
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

  it('clips at MAX_RECORDED_CHUNKS however few bytes the chunks hold, and counts what it did not record', () => {
    const counters = createCounters();
    const recording = createRecording(counters, fresh());
    const rec = recording.start(request)!;
    recording.respond(rec, sse);
    const byte = bytes(':');
    for (let i = 0; i < MAX_RECORDED_CHUNKS + 3; i++) recording.chunk(rec, byte, i);
    recording.end(rec, { state: 'reset', time: 0 });
    expect(rec.chunks.length).toBe(MAX_RECORDED_CHUNKS);
    expect(counters).toMatchObject({ streamsClipped: 1, bytesNotRecorded: 3, recordingFileErrors: 0 });
    expect(rec.exchange.end).toMatchObject({ state: 'reset', bodyClipped: expect.stringMatching(/first 2000000 bytes .*\(its recording cap\)/) });
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

    // Both chunks were staged, and handed on live, before the write that failed.
    expect(heard.map((e) => e.kind)).toEqual(['open', 'response', 'chunk', 'chunk', 'end']);
    expect(counters).toMatchObject({ recordingFileErrors: 1, streamsClipped: 1, bytesNotRecorded: 14 });
    const [exchange] = recording.exchanges();
    expect(exchange!.chunks).toEqual([]);
    // What was not kept is not evidence: the end is not called complete.
    expect(exchange!.end).toMatchObject({ state: 'unknown', bodyClipped: expect.stringMatching(/first 0 bytes .*refused the rest: ENOSPC.*ended normally/) });
  });
});

describe('the live analysis', () => {
  it('reads each chunk from the spool, and asks for none of the bytes the spool lost', async () => {
    for (const full of [false, true]) {
      const spool = fresh(full ? unseekable() : openSpool());
      const recording = createRecording(createCounters(), spool);
      const analysis = createLiveAnalysis(recording, spool, {});
      try {
        const rec = recording.start({ ...request, headers: [{ name: 'mcp-session-id', value: 's1' }] })!;
        recording.requestDone(rec, undefined);
        recording.respond(rec, { ...sse, headers: [...sse.headers, { name: 'mcp-session-id', value: 's1' }] });
        for (let i = 1; i <= 3; i++) recording.chunk(rec, bytes(`id: ${i}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${i}}}\n\n`), 10 + i);
        recording.end(rec, { state: 'complete', time: 20 });
        const [stream] = (await analysis.report({ final: true })).sessions.flatMap((s) => s.streams);
        expect(stream).toMatchObject(full ? { events: 0, end: 'unknown' } : { events: 3, end: 'complete' });
      } finally {
        await analysis.close();
      }
    }
  });
});
