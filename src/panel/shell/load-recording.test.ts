import { describe, expect, it } from 'vitest';
import { isDeliveryShape } from './load-recording';

const relay = { from: 'relay', relay: 'r', seq: 0, items: [], counters: { sent: 0, rejected: 0, tapDropped: 0 } };

describe('a recorded delivery', () => {
  it('is taken with no producer (a tap\'s) or a known one', () => {
    expect(isDeliveryShape(relay)).toBe(true);
    expect(isDeliveryShape({ ...relay, by: 'debugger' })).toBe(true);
    expect(isDeliveryShape({ ...relay, by: 'network-filter' })).toBe(true);
  });

  it('is refused when it names a producer not in the list', () => {
    expect(isDeliveryShape({ ...relay, by: 'tap' })).toBe(false);
    expect(isDeliveryShape({ ...relay, by: 'proxy' })).toBe(false);
    expect(isDeliveryShape({ ...relay, by: null })).toBe(false);
    expect(isDeliveryShape({ ...relay, by: ['debugger'] })).toBe(false);
  });
});
