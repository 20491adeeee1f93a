// The real SDK browser client in a SharedWorker, which neither the page tap nor a tab's
// auto-attach reaches. Bundled by worker-site.ts; a page connects and posts
// `{ url, steps, delayMs }`, and is answered with what the app believed once the call settled.
import { runLongTask } from '../../../demo/client/long-task-client';

(self as unknown as { onconnect: (event: MessageEvent) => void }).onconnect = (event) => {
  const port = event.ports[0]!;
  port.onmessage = async (message: MessageEvent<{ url: string; steps: number; delayMs: number }>) => {
    const { url, steps, delayMs } = message.data;
    const run = await runLongTask(url, { steps, delayMs }, { timeoutMs: 20_000 });
    port.postMessage({ belief: 'result' in run.belief ? 'result' : run.belief.error, progress: run.progress.length });
  };
};
