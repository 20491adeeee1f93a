import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex, type Delivery } from './id-index';

/** Ids stored as a real session does: in per-stream columns the index reads back. */
function store() {
  const columns: string[][] = [];
  const index = new IdIndex((stream, event) => columns[stream]?.[event]);
  const deliver = (stream: number, id: string) => {
    const column = (columns[stream] ??= []);
    column.push(id);
    return index.add(id, stream, column.length - 1);
  };
  return { index, deliver };
}

describe('IdIndex', () => {
  it('finds the first delivery of each id across growth, and reports a repeat with it', () => {
    const { index, deliver } = store();
    for (let i = 0; i < 50_000; i++) expect(deliver(i % 3, `s${i % 3}_${i}`)).toBeUndefined();
    expect(index.size).toBe(50_000);
    // 40000 % 3 is 1: stream 1 delivered it, as its 13,334th event.
    expect(index.get('s1_40000')).toEqual({ stream: 1, event: 13_333 });
    expect(index.get('s2_40000')).toBeUndefined();
    expect(index.get('s1_50000')).toBeUndefined();
    // A replay on stream 7 re-sends an id: the first delivery is named, and the index does not grow.
    expect(deliver(7, 's2_2')).toEqual({ stream: 2, event: 0 });
    expect(index.size).toBe(50_000);
    expect(index.has('s2_2')).toBe(true);
    expect(index.has('s2_3')).toBe(false);
  });

  it('finds an id added where it stands in a larger text by the id alone, and the other way round', () => {
    const ids = ['7_1790000000001_a', '7_1790000000002_b', 'x'];
    const text = `id: ${ids.join('\nid: ')}\n`;
    const index = new IdIndex((_stream, event) => ids[event]);
    let at = 0;
    ids.forEach((id, event) => {
      at = text.indexOf(id, at);
      expect(index.add(id, 0, event, text, at)).toBeUndefined();
    });
    ids.forEach((id, event) => expect(index.get(id)).toEqual({ stream: 0, event }));
    // A repeat given as a plain string is found, and so is one given in the text.
    expect(index.add(ids[1]!, 1, 0)).toEqual({ stream: 0, event: 1 });
    expect(index.add(ids[2]!, 1, 1, text, text.lastIndexOf('x'))).toEqual({ stream: 0, event: 2 });
    expect(index.size).toBe(3);
  });

  it('tells apart ids that differ only in case, length or a lone surrogate', () => {
    const { index, deliver } = store();
    const ids = ['a', 'A', 'a ', '', '\uD800', '\uDC00', '\uD800\uDC00', '0', '00', '1', '1.0'];
    for (const id of ids) expect(deliver(0, id)).toBeUndefined();
    ids.forEach((id, event) => expect(index.get(id)).toEqual({ stream: 0, event }));
  });
});

describe('IdIndex against a Map', () => {
  it('agrees with a Map on every delivery of random ids, repeats and streams included', () => {
    // Ids from a small alphabet repeat often; numbered ones make the index grow past its first size.
    const id = fc.oneof(fc.string({ maxLength: 3, unit: fc.constantFrom('a', 'B', '0', '\uD800', '\n') }), fc.nat(5_000).map(String));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5), id), { maxLength: 3_000, size: 'max' }), (deliveries) => {
        const { index, deliver } = store();
        const reference = new Map<string, Delivery>();
        const counts: number[] = [];
        const disagreements: string[] = [];
        const same = (a: Delivery | undefined, b: Delivery | undefined) => a?.stream === b?.stream && a?.event === b?.event;
        for (const [stream, id] of deliveries) {
          const event = counts[stream] ?? 0;
          counts[stream] = event + 1;
          if (!same(deliver(stream, id), reference.get(id))) disagreements.push(`delivery of ${JSON.stringify(id)}`);
          if (!reference.has(id)) reference.set(id, { stream, event });
        }
        for (const [id, first] of reference) if (!same(index.get(id), first)) disagreements.push(`lookup of ${JSON.stringify(id)}`);
        expect(disagreements).toEqual([]);
        expect(index.size).toBe(reference.size);
      }),
      // No shrinking: on 3,000 deliveries it runs for minutes, and the first failure is readable.
      { numRuns: 200, endOnFailure: true },
    );
  });
});
