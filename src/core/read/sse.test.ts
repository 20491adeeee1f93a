import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseFramer, type BlockReader, type ChunkPlace, type FedBlock, type SseEvent } from './sse';

/** What the framer said of a block it fed alone (copied: it rewrites one object). */
interface Fed {
  raw: string;
  place: Omit<ChunkPlace, 'text'> | undefined;
}

/** Frames `body` cut at the given byte offsets, and returns the events, the blocks fed alone and problems. */
function frame(body: string | Uint8Array, cuts: number[] = [], reader?: BlockReader): { events: SseEvent[]; fed: (Fed | undefined)[]; problems: string[] } {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const events: SseEvent[] = [];
  const fed: (Fed | undefined)[] = [];
  const problems: string[] = [];
  const framer = createSseFramer((e, block) => {
    events.push({ ...e, time: 0 });
    fed.push(block && { raw: block.raw, place: block.place && { chunk: block.place.chunk, dataAt: block.place.dataAt, dataLength: block.place.dataLength, idAt: block.place.idAt } });
  }, (p) => problems.push(p), reader);
  let at = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b)) {
    framer.push(bytes.slice(at, cut), 0);
    at = cut;
  }
  framer.push(bytes.slice(at), 0);
  framer.finish(0);
  return { events, fed, problems };
}

describe('SSE framing', () => {
  it('keeps priming events (id with empty data) and id-only blocks, and attaches retry', () => {
    const { events } = frame('id: p0\nretry: 1000\ndata: \n\nid: only\n\nid: 2\ndata: {"a":1}\n\n');
    expect(events).toEqual([
      { time: 0, id: 'p0', data: '', retry: 1000 },
      { time: 0, id: 'only', data: '', idOnly: true },
      { time: 0, id: '2', data: '{"a":1}' },
    ]);
  });

  it('handles CRLF, lone CR, a BOM, comments and multi-line data', () => {
    const { events } = frame('\uFEFF: hello\r\nid: 1\r\ndata: a\r\ndata: b\r\n\r\nevent: x\rdata: c\r\r');
    expect(events).toEqual([
      { time: 0, id: '1', data: 'a\nb' },
      { time: 0, event: 'x', data: 'c' },
    ]);
  });

  it('counts comments (keep-alives)', () => {
    const framer = createSseFramer(() => undefined, () => undefined);
    framer.push(': keep-alive\n\n: keep-alive\n\n', 0);
    expect(framer.comments).toBe(2);
  });

  it('holds nothing of a chunk once the callback that was given its block has returned', () => {
    const blocks: FedBlock[] = [];
    const framer = createSseFramer((_e, block) => {
      expect(block?.place?.text).toContain('data: {"a":1}');
      blocks.push(block!);
    }, () => undefined);
    framer.push(new TextEncoder().encode('id: 1\ndata: {"a":1}\n\n'), 0);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]!.raw).toBe('');
    expect(blocks[0]!.place).toMatchObject({ text: '', chunk: undefined });
  });

  it('keeps the partial bytes of a block cut by a reset as one truncated event', () => {
    const { events } = frame('id: 1\ndata: {"complete":true}\n\nid: 2\ndata: {"cut in');
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual({ time: 0, id: '2', data: '{"cut in', truncated: true });
  });

  it('a final lone CR still ends the block: not truncated', () => {
    const { events } = frame('data: x\r\r');
    expect(events).toEqual([{ time: 0, data: 'x' }]);
  });

  it('ignores an id containing NUL, as the spec says, without throwing', () => {
    const { events } = frame('id: a\u0000b\ndata: x\n\n');
    expect(events).toEqual([{ time: 0, data: 'x' }]);
  });

  it('frames a 10 MB event', () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const { events, problems } = frame(`id: big\ndata: ${big}\n\n`, [5, 4_000_000, 9_000_000]);
    expect(problems).toEqual([]);
    expect(events[0]!.data.length).toBe(big.length);
  });

  it('decodes UTF-8 split across chunks and replaces invalid bytes instead of throwing', () => {
    const text = 'data: {"s":"héllo ✓ 😀"}\n\n';
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) expect(frame(bytes, [cut]).events[0]!.data).toBe('{"s":"héllo ✓ 😀"}');
    const invalid = new Uint8Array([...new TextEncoder().encode('data: a'), 0xff, 0xfe, ...new TextEncoder().encode('b\n\n')]);
    expect(frame(invalid).events[0]!.data).toBe('a\uFFFD\uFFFDb');
  });

  it('gives the same events whatever the chunking (property, random cuts)', () => {
    const body = 'id: 1\r\ndata: {"jsonrpc":"2.0","method":"x","params":{"é":"✓"}}\r\n\r\n: ka\n\nid: 2\n\nretry: 5\nid: 3\ndata: a\ndata: b\n\nid: 4\ndata: tail';
    const whole = frame(body).events;
    const length = new TextEncoder().encode(body).length;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: length - 1 }), { maxLength: 40 }), (cuts) => {
        expect(frame(body, cuts).events).toEqual(whole);
      }),
      { numRuns: 500 },
    );
  });

  it('hands blocks to a reader without changing what the parser gives, whatever the chunking', { timeout: 60_000 }, () => {
    const line = fc.constantFrom('data: take', 'data: x', 'data:y', 'id: 7', 'id', 'id: ', 'event: e', ': ka', 'retry: 5', '', '\uFEFF', 'data: \u00e9');
    const body = fc.tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\n', '\n', '\r\n', '\r')), { maxLength: 30 }), fc.boolean()).map(([lines, bom]) => `${bom ? '\uFEFF' : ''}${lines.map(([text, end]) => text + end).join('')}`);
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const length = new TextEncoder().encode(text).length;
        const at = cuts.map((cut) => (length > 1 ? 1 + (cut % (length - 1)) : 0));
        const plain = frame(text, at).events;
        // A reader that takes nothing: the same events, each block fed alone knowing its text.
        const alone = frame(text, at, (_text, from) => from);
        expect(alone.events).toEqual(plain);
        // Where a block's data is placed in its chunk, it stands there exactly.
        const decoder = new TextDecoder();
        alone.fed.forEach((block, i) => {
          const place = block?.place;
          if (place) expect(decoder.decode((place.chunk as Uint8Array).subarray(place.dataAt, place.dataAt + place.dataLength))).toBe(alone.events[i]!.data);
        });
        // Without CR, a block's text is exactly the event's block. (Its `retry` may come from an
        // earlier block, and the comparison with `plain` above checks it.)
        const noRetry = ({ retry, ...event }: SseEvent) => event;
        alone.fed.forEach((block, i) => {
          if (block && !block.raw.includes('\r')) expect(frame(block.raw).events.map(noRetry)).toEqual([noRetry(alone.events[i]!)]);
        });
        // A reader that takes every "data: take" block: those and the parser's events, in order,
        // are what the parser alone gives.
        const merged: SseEvent[] = [];
        const framer = createSseFramer((event) => merged.push({ ...event, time: 0 }), () => undefined, (chunk, from) => {
          let next = from;
          for (; chunk.startsWith('data: take\n\n', next); next += 'data: take\n\n'.length) merged.push({ time: 0, data: 'take' });
          return next;
        });
        const bytes = new TextEncoder().encode(text);
        [0, ...[...new Set(at)].sort((x, y) => x - y), bytes.length].reduce((from, to) => (framer.push(bytes.slice(from, to), 0), to));
        framer.finish(0);
        expect(merged).toEqual(plain);
      }),
      { numRuns: 2000 },
    );
  });

  it('says where a chunk\'s complete blocks end: the rest, framed alone, gives the events still to come', { timeout: 60_000 }, () => {
    const line = fc.constantFrom('data: a', 'data: b', 'id: 7', 'event: e', ': ka', 'retry: 5', '', 'data: \u00e9');
    const body = fc.array(fc.tuple(line, fc.constantFrom('\n', '\n', '\r\n', '\r')), { maxLength: 30 }).map((lines) => lines.map(([text, end]) => text + end).join(''));
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const at = [...new Set(cuts.map((cut) => (text.length > 1 ? 1 + (cut % (text.length - 1)) : 0)))].sort((x, y) => x - y);
        const pieces = [0, ...at, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
        const events: SseEvent[] = [];
        const framer = createSseFramer((event) => events.push({ ...event, time: 0 }), () => undefined);
        let start = 0;
        for (const piece of pieces) {
          const before = events.length;
          const settled = framer.push(piece, 0);
          expect(settled).toBeGreaterThanOrEqual(-1);
          expect(settled).toBeLessThanOrEqual(piece.length);
          if (settled >= 0) {
            const rest = text.slice(start + settled);
            // What follows the cut, framed alone, is every event the whole body still gives.
            const whole = frame(text).events;
            const done = events.length;
            expect(frame(rest).events).toEqual(whole.slice(done));
            expect(done).toBeGreaterThanOrEqual(before);
          }
          start += piece.length;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
