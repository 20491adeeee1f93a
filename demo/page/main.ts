import { runLongTask, type ProgressSeen } from '../client/long-task-client.js';
import { readReceipts } from '../client/read-receipt.js';
import { CATALOG, clientPathOf, DEMO_TASK, isScenario, mountOf, type Scenario } from '../scenario-catalog.js';
import { createGuardSwitch } from './guard-switch.js';
import { createPageView } from './view.js';

// The demo client page: the real SDK browser client (fetch-based transports) calling
// `long_task` through the scenario's load balancer, mounted on this page's origin at
// /s/<scenario>/. `?scenario=NAME` selects a scenario, `&guard=reissue|throw` turns on the
// guarded client, and `&autorun=1` runs it on load.

const params = new URLSearchParams(location.search);
const view = createPageView((scenario) => void run(scenario));
const guard = createGuardSwitch(params, (policy) => {
  const query = new URLSearchParams(location.search);
  if (policy) query.set('guard', policy);
  else query.delete('guard');
  history.replaceState(null, '', `?${query}`);
});

async function run(scenario: Scenario): Promise<void> {
  const policy = guard.policy();
  view.start(scenario, policy);
  guard.setBusy(true);
  const query = new URLSearchParams(location.search);
  query.set('scenario', scenario);
  query.delete('autorun');
  history.replaceState(null, '', `?${query}`);
  const url = new URL(`${mountOf(scenario)}${clientPathOf(scenario)}`, location.href).href;
  // The balancer's drain waits for the page to say it read the events before the cut (see
  // demo/lb/read-receipts.ts); progress 0, before the call, says that it will tell.
  const { key, tell } = readReceipts({ scenario });
  try {
    await tell(0);
    const onProgress = (seen: ProgressSeen) => {
      view.progress(seen);
      void tell(seen.progress);
    };
    const options = { client: CATALOG[scenario].client, onProgress, onNote: view.note, onGuard: view.guard };
    const task = { ...DEMO_TASK, idempotencyKey: key };
    view.finish(await runLongTask(url, task, policy ? { ...options, guard: { policy } } : options));
  } catch (error) {
    view.fail(error instanceof Error ? error.message : String(error));
  } finally {
    guard.setBusy(false);
  }
}

const chosen = params.get('scenario');
if (chosen !== null && isScenario(chosen) && params.get('autorun') === '1') void run(chosen);
