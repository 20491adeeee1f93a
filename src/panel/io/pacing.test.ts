import { expect, it } from 'vitest';
import { createPacing } from './pacing';

it('counts what the panel took in, and wakes every wait at the next take', async () => {
  const pacing = createPacing();
  const woken: string[] = [];
  const first = pacing.next().then(() => woken.push(`first at ${pacing.taken}`));
  const second = pacing.next().then(() => woken.push(`second at ${pacing.taken}`));
  expect(pacing.taken).toBe(0);
  pacing.take();
  await Promise.all([first, second]);
  expect(woken).toEqual(['first at 1', 'second at 1']);
  const third = pacing.next().then(() => woken.push(`third at ${pacing.taken}`));
  pacing.take();
  await third;
  expect(woken.at(-1)).toBe('third at 2');
});
