// The real SDK browser client in the page, run either with the page's fetch (which the tap
// wraps) or with the fetch of an about:blank frame. The tap is injected only into http(s)
// frames, so that frame's fetch was never wrapped: what a page that wants an unpatched fetch
// does, and a request the tap cannot see. Bundled by worker-site.ts.
import { runLongTask } from '../../../demo/client/long-task-client';

(globalThis as unknown as { runFramed: unknown }).runFramed = async (url: string, steps: number, delayMs: number, pristine: boolean) => {
  const own = globalThis.fetch;
  const frame = document.createElement('iframe');
  document.body.append(frame);
  // The SDK calls the global `fetch` when it sends, so this is the fetch it uses.
  if (pristine) globalThis.fetch = frame.contentWindow!.fetch.bind(frame.contentWindow);
  try {
    const run = await runLongTask(url, { steps, delayMs }, { timeoutMs: 20_000 });
    return { belief: 'result' in run.belief ? 'result' : run.belief.error, progress: run.progress.length };
  } finally {
    globalThis.fetch = own;
  }
};
