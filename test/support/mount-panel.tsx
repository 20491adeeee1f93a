import { render } from '@testing-library/preact';
import type { Exchange } from '../../src/core/index';
import { createLens } from '../../src/panel/app/create-lens';
import { LensApp } from '../../src/panel/app/LensApp';
import { createMemoryAdapter } from '../../src/panel/host/memory-adapter';

/**
 * The real panel on the test adapter, its capture replayed from `exchanges`, rendered into the
 * test's document (happy-dom). Unmounted by testing-library's `cleanup()`.
 */
export function mountPanel(exchanges: readonly Exchange[] = [], init: Parameters<typeof createMemoryAdapter>[0] = {}) {
  const memory = createMemoryAdapter(init);
  const lens = createLens(memory.adapter);
  const stop = lens.start();
  if (exchanges.length > 0) memory.replay.replayExchanges(exchanges);
  const view = render(<LensApp lens={lens} />);
  return { memory, lens, view, stop };
}
