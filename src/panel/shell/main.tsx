// The inline shell: the real panel on a plain page, its capture replayed from `?har=` or
// `?capture=`, imported by the user, or (with `?token=`, served by `mcp-stream-lens proxy`)
// fed live from the proxy. The demo's headless mode and the browser tests use it.
import { mountLens } from '../app/mount-lens';
import { createShellAdapter } from './shell-adapter';
import { loadRecording } from './load-recording';
import { createLiveFeed, type LiveState } from './live-feed';

const status = document.getElementById('replay-status')!;
const token = new URLSearchParams(window.location.search).get('token');
const LIVE_TEXT: Record<LiveState, string> = {
  connecting: '',
  live: '',
  reconnecting: 'The live feed was cut; reconnecting. What is shown stays, and the feed goes on where it stopped.',
  ended: 'The live feed ended (the proxy stopped, or refused this view). What is shown stays; reload for a fresh view.',
};
const onLive = (state: LiveState) => ((document.body.dataset.live = state), (status.textContent = LIVE_TEXT[state]));
const live = token ? createLiveFeed(`./feed?token=${encodeURIComponent(token)}`, onLive) : undefined;
const { adapter, replay, params } = createShellAdapter(window, live?.adapter);
mountLens({ adapter, container: document.getElementById('app')! });

const har = params.get('har');
const source = har ?? params.get('capture');
if (source && !live) {
  void loadRecording(source, har ? 'har' : 'capture', replay).then((problem) => {
    document.body.dataset.replay = problem ? 'failed' : 'loaded';
    if (problem) status.textContent = `Replay failed: ${problem}`;
  });
}
