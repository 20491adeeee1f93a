import { describe, expect, it } from 'vitest';
import type { StreamEnd } from '../../core/model';
import { teeBody, type BodySink } from './body-recorder';
import type { Primordials } from './primordials';

const p = { ReadableStream, now: () => 5 } as unknown as Primordials;
const bytes = (text: string) => new TextEncoder().encode(text);

describe('teeBody', () => {
  it('keeps the page reading when recording fails, and ends the recording with why', async () => {
    const ends: StreamEnd[] = [];
    let chunks = 0;
    const sink: BodySink = {
      chunk: () => {
        if (++chunks === 2) throw new RangeError('Array buffer allocation failed');
      },
      end: (end) => void ends.push(end),
    };
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const text of ['a', 'b', 'c']) c.enqueue(bytes(text));
        c.close();
      },
    });
    expect(await new Response(teeBody(p, body, sink)).text()).toBe('abc');
    expect(chunks).toBe(2);
    expect(ends).toEqual([{ state: 'reset', time: 5, error: 'the tap stopped recording: RangeError: Array buffer allocation failed' }]);
  });
});
