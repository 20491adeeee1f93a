import { render } from 'preact';
import type { PanelAdapter } from './adapter';
import { App } from './App';
import { createCaptureStore } from './capture-store';

/** Mounts the panel on `container`, fed by `adapter`; returns a function that unmounts it. */
export function mount({ adapter, container }: { adapter: PanelAdapter; container: HTMLElement }): () => void {
  const store = createCaptureStore(adapter);
  const stop = store.start();
  render(<App store={store} />, container);
  return () => {
    stop();
    render(null, container);
  };
}
