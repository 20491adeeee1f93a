import { isRelayAttach } from '../../shared/messages';
import { createTapContext } from './context';
import { createTapEmitter } from './emitter';
import { tapEventSource } from './eventsource-tap';
import { tapFetch } from './fetch-tap';
import { guardedPlaces, startLossTimer } from './loss-watch';
import { takePrimordials } from './primordials';
import { openRelayPort } from './relay-port';
import { tapXhr } from './xhr-tap';

/** Marks a window whose APIs are already wrapped (a frame may run the script twice). */
const INSTALLED = Symbol.for('mcp-stream-lens/tap');

/** Installs the page tap on `win`: fetch, EventSource and XMLHttpRequest. Idempotent. */
export function installTap(win: Window & typeof globalThis): void {
  const marked = win as unknown as Record<symbol, boolean>;
  if (marked[INSTALLED]) return;
  Object.defineProperty(win, INSTALLED, { value: true });
  const relay = openRelayPort(win);
  const p = takePrimordials(win, relay.post);
  const out = createTapEmitter(p);
  let wakeLossTimer = () => undefined as void;
  // Every capture (re)starts the loss timer: from then on the page has something to lose.
  const ctx = createTapContext(p, { ...out, emit: (item) => (out.emit(item), wakeLossTimer()) });
  tapFetch(win, ctx);
  tapEventSource(win, ctx);
  tapXhr(win, ctx);
  // Taken after wrapping: from now on anything else in these places means the page took them over.
  const losses = startLossTimer({ p, places: guardedPlaces(win), report: out.lost, watching: out.watching });
  wakeLossTimer = losses.wake;
  // The relay of this frame says when a panel comes or goes.
  relay.listen((message) => {
    if (!isRelayAttach(message)) return;
    out.setAttached(message.attached);
    if (message.attached) losses.checkNow();
  });
}
