import { runLongTask } from '../client/long-task-client.js';
import { CATALOG, clientPathOf, DEMO_TASK, isScenario, mountOf, type Scenario } from '../scenario-catalog.js';
import { createPageView } from './view.js';

// The demo client page: the real SDK browser client (fetch-based transports) calling
// `long_task` through the scenario's load balancer, mounted on this page's origin at
// /s/<scenario>/. `?scenario=NAME` selects a scenario and `&autorun=1` runs it on load.

const view = createPageView((scenario) => void run(scenario));

async function run(scenario: Scenario): Promise<void> {
  view.start(scenario);
  const query = new URLSearchParams(location.search);
  query.set('scenario', scenario);
  query.delete('autorun');
  history.replaceState(null, '', `?${query}`);
  const url = new URL(`${mountOf(scenario)}${clientPathOf(scenario)}`, location.href).href;
  try {
    view.finish(await runLongTask(url, DEMO_TASK, { client: CATALOG[scenario].client, onProgress: view.progress, onNote: view.note }));
  } catch (error) {
    view.fail(error instanceof Error ? error.message : String(error));
  }
}

const params = new URLSearchParams(location.search);
const chosen = params.get('scenario');
if (chosen !== null && isScenario(chosen) && params.get('autorun') === '1') void run(chosen);
