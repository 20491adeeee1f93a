// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, expect, it } from 'vitest';
import { useStaged } from './use-staged';

afterEach(() => cleanup());

function Parts() {
  const stage = useStaged(3);
  return <p data-testid="parts">{Array.from({ length: stage }, (_, i) => `part ${i + 1}`).join(', ')}</p>;
}

it('renders the first part at once and one more after each frame, up to all of them', async () => {
  render(<Parts />);
  expect(screen.getByTestId('parts').textContent).toBe('part 1');
  expect((await screen.findByText('part 1, part 2')).dataset.testid).toBe('parts');
  expect((await screen.findByText('part 1, part 2, part 3')).dataset.testid).toBe('parts');
});
