import { render } from 'preact';
import type { LensAdapter } from '../host/lens-adapter';
import { createLens } from './create-lens';
import { LensApp } from './LensApp';

/** Mounts the panel on `container`, fed by `adapter`; returns a function that unmounts it. */
export function mountLens({ adapter, container }: { adapter: LensAdapter; container: HTMLElement }): () => void {
  const lens = createLens(adapter);
  const stop = lens.start();
  render(<LensApp lens={lens} />, container);
  return () => {
    stop();
    render(null, container);
  };
}
