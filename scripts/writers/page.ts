// The recording page: the real SDK browser client calling `long_task` through the scenario's
// load balancer on this origin. Bundled by site.ts. When the run is over it tells the site
// (`POST /done`), which answers once the load balancer has seen every exchange end, and only
// then lets the page's held image load: the page's load event is the "run over" signal that
// every writer can wait for (Firefox's auto-export exports when the page has loaded).
import { runLongTask } from '../../demo/client/long-task-client.js';
import { readReceipts } from '../../demo/client/read-receipt.js';
import { DEMO_TASK } from '../../demo/scenario-catalog.js';

const query = new URLSearchParams(location.search);
const status = document.getElementById('status')!;
const revision = query.get('revision');

// The balancer's drain waits for the page to say it read what was passed (read-receipts.ts).
const { key, tell } = readReceipts();

void tell(0)
  .then(() =>
    runLongTask(new URL(query.get('mcp') ?? '/mcp', location.href).href, { ...DEMO_TASK, idempotencyKey: key }, {
      timeoutMs: Number(query.get('timeout') ?? 3_000),
      onProgress: (seen) => void tell(seen.progress),
      ...(revision !== null && { protocolVersion: revision }),
    }),
  )
  .then((run) => ('result' in run.belief ? `result ${JSON.stringify(run.belief.result._meta ?? {})}` : `error ${run.belief.error}`))
  .catch((error: unknown) => `error ${String(error)}`)
  .then(async (belief) => {
    status.textContent = belief;
    await fetch('/done', { method: 'POST', body: belief });
    status.dataset.done = '1';
  });
