// The real SDK browser client in a dedicated Worker, where the page tap cannot see it. Bundled by
// worker-site.ts; the page posts `{ url, steps, delayMs }`, the Worker answers with what the app
// believed once the call settled.
import { runLongTask } from '../../../demo/client/long-task-client';

self.onmessage = async (event: MessageEvent<{ url: string; steps: number; delayMs: number }>) => {
  const { url, steps, delayMs } = event.data;
  const run = await runLongTask(url, { steps, delayMs }, { timeoutMs: 20_000 });
  postMessage({ belief: 'result' in run.belief ? 'result' : run.belief.error, progress: run.progress.length });
};
