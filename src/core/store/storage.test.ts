import { describe, expect, it } from 'vitest';
import { analyze, createAnalyzer, feed } from '../index';
import { scenarios } from '../../../test/support/scenarios';

describe('storage choices', () => {
  it('without payloads, events keep their ids and facts but no data, and the report is the same', () => {
    for (const store of ['packed', 'plain'] as const) {
      const kept = createAnalyzer({ store });
      const bare = createAnalyzer({ store, keepPayloads: false });
      feed(kept, scenarios.genuine());
      feed(bare, scenarios.genuine());
      expect(JSON.stringify(bare.report())).toBe(JSON.stringify(kept.report()));
      const [full, none] = [[...kept.events(2)], [...bare.events(2)]];
      expect(full.map((e) => e.data.length > 0)).toEqual([true, true, true, true]);
      expect(none.map((e) => e.data)).toEqual(['', '', '', '']);
      expect(none).toEqual(full.map((e) => ({ ...e, data: '' })));
    }
  });

  it('every store gives the same report on every scenario', () => {
    for (const make of Object.values(scenarios)) {
      const packed = JSON.stringify(analyze(make()));
      expect(JSON.stringify(analyze(make(), { store: 'plain' }))).toBe(packed);
      expect(JSON.stringify(analyze(make(), { store: { table: 'packed', ids: 'plain' } }))).toBe(packed);
      expect(JSON.stringify(analyze(make(), { keepPayloads: false }))).toBe(packed);
    }
  });
});
