import { describe, expect, it } from 'vitest';
import { createLossWatch, type Guarded } from './loss-watch';

const p = { describe: Object.getOwnPropertyDescriptor, now: () => 42 };

function places() {
  const mine = () => undefined;
  const win: Record<string, unknown> = { fetch: mine };
  const proto: Record<string, unknown> = { send: mine };
  const guarded: Guarded[] = [
    { api: 'fetch', holder: win, key: 'fetch', mine },
    { api: 'xhr', holder: proto, key: 'send', mine },
  ];
  return { win, proto, guarded, mine };
}

describe('loss watch', () => {
  it('finds nothing while the page keeps the tap\'s wrappers, even frozen in place', () => {
    const { win, guarded, mine } = places();
    Object.defineProperty(win, 'fetch', { value: mine, writable: false, configurable: false });
    const watch = createLossWatch(p, guarded);
    expect(watch.check()).toEqual([]);
    expect(watch.done()).toBe(false);
  });

  it('reports a deleted wrapper and a getter once each, without calling the getter', () => {
    const { win, proto, guarded } = places();
    let calls = 0;
    delete win.fetch;
    Object.defineProperty(proto, 'send', { get: () => (calls += 1), configurable: true });
    const watch = createLossWatch(p, guarded);
    expect(watch.check()).toEqual([{ api: 'fetch', time: 42 }, { api: 'xhr', time: 42 }]);
    expect(watch.check()).toEqual([]);
    expect(watch.done()).toBe(true);
    expect(calls).toBe(0);
  });
});
