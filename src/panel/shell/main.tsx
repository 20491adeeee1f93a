// The inline shell: the real panel on a plain page, its capture replayed from `?har=` or
// `?capture=`, or imported by the user. The demo's headless mode and the browser tests use it.
import { mountLens } from '../app/mount-lens';
import { createShellAdapter } from './shell-adapter';
import { loadRecording } from './load-recording';

const { adapter, replay, params } = createShellAdapter(window);
const container = document.getElementById('app')!;
mountLens({ adapter, container });

const har = params.get('har');
const capture = params.get('capture');
const source = har ?? capture;
if (source) {
  void loadRecording(source, har ? 'har' : 'capture', replay).then((problem) => {
    document.body.dataset.replay = problem ? 'failed' : 'loaded';
    if (problem) document.getElementById('replay-status')!.textContent = `Replay failed: ${problem}`;
  });
}
