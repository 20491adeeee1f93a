import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSseFramer, type SseEvent } from '../read/sse';
import { TextStore } from '../store/text-store';
import { analyseBody } from '../../../test/support/fixtures';

const encoder = new TextEncoder();

/** The id and data of every event the analyzer keeps for one SSE body, cut at `cuts`. */
function kept(body: string, cuts: number[]): [string | undefined, string][] {
  return analyseBody(body, cuts).events.map((e) => [e.id, e.data]);
}

/** The id and data of every event eventsource-parser gives for the body's UTF-8, whole. */
function parsed(body: string): [string | undefined, string][] {
  const events: SseEvent[] = [];
  const framer = createSseFramer((event) => events.push(event), () => undefined);
  framer.push(encoder.encode(body), 0);
  framer.finish(0);
  return events.map((e) => [e.id, e.data]);
}

// Mostly ASCII: a chunk's data is placed only where each character took one byte.
const payload = fc.oneof(fc.constantFrom('', 'x', 'step 1 of 9', '\\"'), fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 4 })).map((text) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { text } }));
/** The ways a server may write a payload: one `data:` line with or without its space, or two. */
const dataLines = fc.oneof(
  payload.map((p) => [`data: ${p}`]),
  payload.map((p) => [`data:${p}`]),
  payload.map((p) => [`data:  ${p}`]),
  fc.tuple(payload, fc.nat()).map(([p, cut]) => [`data: ${p.slice(0, cut % p.length)}`, `data: ${p.slice(cut % p.length)}`]),
);
const block = fc.record({
  data: dataLines,
  id: fc.option(fc.nat(99).map(String), { nil: undefined }),
  idLast: fc.boolean(),
  event: fc.boolean(),
  comment: fc.boolean(),
}).map(({ data, id, idLast, event, comment }) => {
  const idLine = id === undefined ? [] : [`id: ${id}`];
  return [...(event ? ['event: message'] : []), ...(idLast ? [] : idLine), ...data, ...(idLast ? idLine : []), ...(comment ? [': c'] : [])];
});

describe('event data kept where it stands in a chunk', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads back as the parser gave it, whatever the layout, line ends and chunking', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 6 }), (blocks, end, cuts) => {
        const body = blocks.map((lines) => `${lines.join(end)}${end}${end}`).join('');
        expect(kept(body, cuts)).toEqual(parsed(body));
      }),
      { numRuns: 500 },
    );
  });

  it('copies only the data that stands nowhere as one text: several data lines', () => {
    const add = vi.spyOn(TextStore.prototype, 'add');
    const events = kept('id: 1\ndata: {"jsonrpc":"2.0","method":"a"}\n\nid: 2\ndata: {"jsonrpc":"2.0",\ndata: "method":"b"}\n\n', []);
    expect(events).toEqual([['1', '{"jsonrpc":"2.0","method":"a"}'], ['2', '{"jsonrpc":"2.0",\n"method":"b"}']]);
    const copied = add.mock.calls.map(([text]) => text);
    expect(copied).toContain('{"jsonrpc":"2.0",\n"method":"b"}');
    expect(copied).not.toContain('{"jsonrpc":"2.0","method":"a"}');
  });
});
