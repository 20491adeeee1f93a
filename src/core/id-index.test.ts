import { describe, expect, it } from 'vitest';
import { IdIndex } from './id-index';

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

  it('tells apart ids that differ only in case, length or a lone surrogate', () => {
    const { index, deliver } = store();
    const ids = ['a', 'A', 'a ', '', '\uD800', '\uDC00', '\uD800\uDC00', '0', '00', '1', '1.0'];
    for (const id of ids) expect(deliver(0, id)).toBeUndefined();
    ids.forEach((id, event) => expect(index.get(id)).toEqual({ stream: 0, event }));
  });
});
