import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventColumns } from './event-table';
import { emptyFacts } from '../read/facts';
import { RowBuffers } from './row-buffers';
import { createStringTable } from './string-table';
import { TextStore } from './text-store';

/** Appends a row whose every field says which table and row it is. */
function appendRow(to: EventColumns, table: number, row: number): void {
  const facts = { ...emptyFacts('progress'), method: `m${table}`, seq: { key: 'app_seq', value: row, kind: 'app_seq' as const }, progressToken: `"tok-${table}"` };
  to.append({ time: table * 1_000_000 + row, id: `${table}_${row}`, event: 'message' }, `{"t":${table},"r":${row}}`, facts);
}

describe('RowBuffers', () => {
  it('gives regions 8-byte aligned, and reuses one given back only for its own size', () => {
    const buffers = new RowBuffers();
    const a = buffers.take(3328);
    const b = buffers.take(3328);
    expect(a.offset % 8).toBe(0);
    expect(b.offset).toBe(a.offset + 3328);
    buffers.give(a);
    expect(buffers.take(6656)).not.toBe(a);
    expect(buffers.take(3328)).toBe(a);
  });

  it('keeps every table intact while many grow and trim side by side through shared and reused regions', { timeout: 60_000 }, () => {
    fc.assert(
      // 0-39 appends a row to that table; 40-41 trims table 0 or 1, which may grow again after.
      fc.property(fc.array(fc.nat(41), { minLength: 1, maxLength: 8000, size: 'max' }), (order) => {
        const strings = createStringTable();
        const text = new TextStore();
        const buffers = new RowBuffers();
        const tables = Array.from({ length: 40 }, () => new EventColumns(strings, text, buffers));
        for (const op of order) {
          if (op >= 40) tables[op - 40]!.trim();
          else appendRow(tables[op]!, op, tables[op]!.length);
        }
        tables.forEach((table, t) => {
          for (let row = 0; row < table.length; row++) {
            const record = table.get(row)!;
            expect([record.time, record.id, record.data, record.method, record.seq?.value, record.progressToken]).toEqual([t * 1_000_000 + row, `${t}_${row}`, `{"t":${t},"r":${row}}`, `m${t}`, row, `"tok-${t}"`]);
          }
        });
      }),
      // No shrinking: on thousands of rows it runs for minutes, and the first failure is readable.
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('trims an ended table to its rows, and gives its larger region to the next table that grows', () => {
    const strings = createStringTable();
    const text = new TextStore();
    const buffers = new RowBuffers();
    const ended = new EventColumns(strings, text, buffers);
    // 64 rows, then 128: a region of 128 x 52 bytes, 67 of them used.
    for (let row = 0; row < 67; row++) appendRow(ended, 0, row);
    ended.trim();
    expect([ended.length, ended.timeAt(66), ended.idAt(0), ended.seqValueAt(66)]).toEqual([67, 66, '0_0', 66]);
    // The slab holds the 64-row region, then the 128-row one, then the trimmed 68 rows: the next
    // 128-row table gets the second, not fresh room after the third.
    const outgrown = buffers.take(128 * 52);
    expect(outgrown.offset).toBe(64 * 52);
    // Nothing of the ended table is in the region it gave back: overwrite it all.
    new Uint8Array(outgrown.buffer, outgrown.offset, outgrown.bytes).fill(0xff);
    expect([ended.idAt(66), ended.seqValueAt(33), ended.get(20)?.method]).toEqual(['0_66', 33, 'm0']);
  });

  it('keeps a table intact past a buffer of its own, and a second table beside it', () => {
    const strings = createStringTable();
    const text = new TextStore();
    const buffers = new RowBuffers();
    const [long, short] = [new EventColumns(strings, text, buffers), new EventColumns(strings, text, buffers)];
    // 52 bytes a row: past 2,521 rows a table outgrows a slab's largest region.
    for (let row = 0; row < 10_000; row++) {
      appendRow(long, 0, row);
      if (row % 7 === 0) appendRow(short, 1, short.length);
    }
    expect([long.timeAt(9_999), long.idAt(9_999), long.seqValueAt(5_000)]).toEqual([9_999, '0_9999', 5_000]);
    expect([short.length, short.timeAt(1_428), short.idAt(0)]).toEqual([1_429, 1_000_000 + 1_428, '1_0']);
  });
});
