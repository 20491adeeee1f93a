// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { whenIdle } from './when-idle';

it('runs the work once the thread is idle, after what was already queued', async () => {
  const order: string[] = [];
  const idle = new Promise<void>((resolve) => whenIdle(() => (order.push('idle'), resolve())));
  order.push('this task');
  await idle;
  expect(order).toEqual(['this task', 'idle']);
});
