import { describe, expect, it } from 'vitest';
import { createNavigationLog } from './navigation-log';

describe('navigation log', () => {
  it('keeps each navigation once, oldest first, and counts what its cap pushes out', () => {
    const log = createNavigationLog(2);
    expect(log.add({ url: 'http://h/2', time: 2 })).toBe(true);
    expect(log.add({ url: 'http://h/1', time: 1 })).toBe(true);
    expect(log.add({ url: 'http://h/2', time: 2 })).toBe(false);
    log.add({ url: 'http://h/3', time: 3 });
    expect(log.marks()).toEqual([{ url: 'http://h/2', time: 2 }, { url: 'http://h/3', time: 3 }]);
    expect(log.evicted()).toBe(1);
  });
});
