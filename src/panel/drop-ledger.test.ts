import { describe, expect, it } from 'vitest';
import type { CapturedItem } from '../shared/messages';
import { countDrops, createDropLedger } from './drop-ledger';

const items = (n: number): CapturedItem[] => Array.from({ length: n }, () => ({ kind: 'chunk', stream: 0, time: 1, bytes: 1, text: 'x' }));
const counters = (sent: number, rejected = 0) => ({ sent, rejected, tapDropped: 0 });

describe('drop ledger', () => {
  it('counts a gap in the numbering as lost, whatever caused it', () => {
    const ledger = createDropLedger();
    expect(ledger.accept('r', 0, items(3), counters(3))).toHaveLength(3);
    expect(ledger.accept('r', 5, items(2), counters(7))).toHaveLength(2);
    expect(countDrops(ledger).lost).toBe(2);
  });

  it('skips items it already has (a replay after the worker restarted)', () => {
    const ledger = createDropLedger();
    ledger.accept('r', 0, items(4), counters(4));
    expect(ledger.accept('r', 2, items(4), counters(6))).toHaveLength(2);
    expect(countDrops(ledger).lost).toBe(0);
  });

  it('counts items sent after the last one received, from a polled status', () => {
    const ledger = createDropLedger();
    ledger.accept('r', 0, items(2), counters(2));
    ledger.status('r', counters(10, 3));
    expect(countDrops(ledger)).toMatchObject({ lost: 8, rejected: 3, total: 11 });
  });

  it('ignores the old page after "Reload and capture from start"', () => {
    const ledger = createDropLedger();
    ledger.accept('old', 0, items(1), counters(1));
    ledger.forgetRelays();
    expect(ledger.accept('old', 5, items(1), counters(6))).toEqual([]);
    expect(countDrops(ledger).total).toBe(0);
  });

  it('keeps the earliest loss of each API across reports and frames, outside the item total', () => {
    const ledger = createDropLedger();
    ledger.status('top', { ...counters(0), tapLost: [{ api: 'fetch', time: 20 }] });
    ledger.status('top', { ...counters(0), tapLost: [{ api: 'fetch', time: 30 }, { api: 'xhr', time: 25 }] });
    ledger.status('frame', { ...counters(0), tapLost: [{ api: 'fetch', time: 10 }] });
    const drops = countDrops(ledger);
    expect(drops.tapLost).toEqual([{ api: 'fetch', time: 10 }, { api: 'xhr', time: 25 }]);
    expect(drops.total).toBe(0);
  });
});
