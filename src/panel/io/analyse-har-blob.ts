import { createAnalyzer, type AnalysisOptions } from '../../core/index';
import { feedSteps } from './feed-steps';
import type { PostReply } from './import-messages';
import { readHarBlob } from './read-har-blob';
import { sliceOf, transferOf, type TableSlice } from './table-slice';

/**
 * Events the panel is handed at most in one analysis: what its views take in per report (the
 * timeline appends each new event) stays a short task on its main thread.
 */
export const MAX_POSTED_EVENTS = 20_000;
/** An analysis is posted at least this often while events come, so the capture grows on screen. */
const POST_MS = 250;
/** Progress is posted at most this often: a file is read in chunks of tens of kilobytes. */
const PROGRESS_MS = 50;

/**
 * Reads a HAR file entry by entry and analyses it as it goes, posting what the panel shows (see
 * import-messages.ts): runs in the import worker, or in the panel itself where no worker can
 * start. The exchanges are fed a piece of a body at a time, so a post never waits for a whole
 * large body. Resolves once `done` is posted, or when `cancelled()` says so between chunks.
 */
export async function analyseHarBlob(file: Blob, options: AnalysisOptions, post: PostReply, cancelled: () => boolean = () => false): Promise<void> {
  const analyzer = createAnalyzer(options);
  /** Events of each stream already posted. */
  const posted: number[] = [];
  let unposted = 0;
  let lastPost = performance.now();
  let lastProgress = -Infinity;

  const postAnalysis = () => {
    const slices: TableSlice[] = [];
    for (let stream = 0; stream < posted.length; stream++) {
      const table = analyzer.events(stream);
      if (table.length > posted[stream]!) slices.push(sliceOf(stream, table, posted[stream]!, table.length));
      posted[stream] = table.length;
    }
    post({ kind: 'analysis', slices, report: analyzer.report() }, slices.flatMap(transferOf));
    unposted = 0;
    lastPost = performance.now();
  };

  const result = await readHarBlob(
    file,
    {
      progress(read, total) {
        if (performance.now() - lastProgress < PROGRESS_MS) return;
        lastProgress = performance.now();
        post({ kind: 'progress', read, total });
      },
      exchanges(list) {
        // Before their analysis: every stream an analysis names has its exchange on the panel's side.
        post({ kind: 'exchanges', exchanges: list });
        for (const exchange of list) {
          let before = 0;
          for (const stream of feedSteps(analyzer, exchange)) {
            if (posted.length <= stream) posted.push(0);
            const length = analyzer.events(stream).length;
            unposted += length - before;
            before = length;
            if (unposted >= MAX_POSTED_EVENTS || (unposted > 0 && performance.now() - lastPost >= POST_MS)) postAnalysis();
          }
        }
      },
    },
    cancelled,
  );
  if (!result) return;
  if (result.ok) postAnalysis();
  post({ kind: 'done', result });
}
