// Isolated-world relay. Classic script too: a module loader would start late and miss the
// tap's first messages.
import browser from 'webextension-polyfill';
import { MAX_RELAY_REPLAY, MAX_RELAY_REPLAY_CHARS, createPortClient } from '../shared/port-client';
import { MAX_RELAY_QUEUE, MAX_RELAY_QUEUE_CHARS, batchChars, startRelay } from '../capture/relay';
import { PORT, make } from '../shared/messages';

const relay = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

startRelay({
  win: window,
  relay,
  port: (counters, onMessage) =>
    createPortClient({
      connect: () => browser.runtime.connect({ name: PORT.relay }),
      hello: () => make('relay-hello', { relay, counters: counters() }),
      maxQueue: MAX_RELAY_QUEUE,
      maxQueueSize: MAX_RELAY_QUEUE_CHARS,
      // The panel numbers relay items and ignores repeats, so re-sending after a worker death is safe.
      maxReplay: MAX_RELAY_REPLAY,
      maxReplaySize: MAX_RELAY_REPLAY_CHARS,
      sizeOf: batchChars,
      onMessage,
      eager: false,
    }),
  onRuntimeMessage: (listener) => browser.runtime.onMessage.addListener((message: unknown) => void listener(message)),
});
