import { isRelayAttach } from '../../shared/messages';
import { createTapContext } from './context';
import { createTapEmitter } from './emitter';
import { tapEventSource } from './eventsource-tap';
import { tapFetch } from './fetch-tap';
import { takePrimordials } from './primordials';
import { tapXhr } from './xhr-tap';

/** Marks a window whose APIs are already wrapped (a frame may run the script twice). */
const INSTALLED = Symbol.for('mcp-stream-lens/tap');

/** Installs the page tap on `win`: fetch, EventSource and XMLHttpRequest. Idempotent. */
export function installTap(win: Window & typeof globalThis): void {
  const marked = win as unknown as Record<symbol, boolean>;
  if (marked[INSTALLED]) return;
  Object.defineProperty(win, INSTALLED, { value: true });
  const p = takePrimordials(win);
  const out = createTapEmitter(p);
  // The relay of this frame says when a panel comes or goes.
  win.addEventListener('message', (event) => {
    if (event.source === win && isRelayAttach(event.data)) out.setAttached(event.data.attached);
  });
  const ctx = createTapContext(p, out);
  tapFetch(win, ctx);
  tapEventSource(win, ctx);
  tapXhr(win, ctx);
}
