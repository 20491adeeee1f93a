import { createAnalyzer, createHarStreamReader, type AnalysisOptions, type Exchange, type HarStreamResult } from '../../core/index';
import { feedSteps } from './feed-steps';
import type { PostReply } from './import-messages';
import type { Pacing } from './pacing';
import { sliceOf, transferOf, type TableSlice } from './table-slice';

/**
 * Events the panel is handed at most in one analysis: what its views take in per report (the
 * timeline appends each new event) stays a short task on its main thread.
 */
export const MAX_POSTED_EVENTS = 5_000;
/**
 * The first analysis is posted sooner: the panel then renders the capture for the first time,
 * which costs enough without many events to lay out.
 */
export const FIRST_POSTED_EVENTS = 1_000;
/** An analysis is posted at least this often while events come, so the capture grows on screen. */
const POST_MS = 250;
/** Exchanges are posted once about this much body waits, or with the next analysis. */
const BATCH_BODY_CHARS = 512 * 1024;
/** Progress is posted at most this often: a file is read in chunks of tens of kilobytes. */
const PROGRESS_MS = 50;
/**
 * Analyses posted that the panel has not yet taken in and painted, past which the analysis waits.
 * One: the next analysis is made while the panel takes in the last, but never more, so the panel
 * is never handed more than one analysis beyond what it has shown, and the analysis stops taking a
 * core while the panel catches up. (None, taking turns, made the import slower for no shorter task.)
 */
export const MAX_UNTAKEN = 1;

/** How {@link analyseHarBlob} talks to the panel. */
export interface AnalysisPeer {
  post: PostReply;
  /** The analyses the panel has taken in and painted. */
  pacing: Pacing;
  /** Asked between steps; true stops the analysis, with nothing more posted. */
  cancelled(): boolean;
}

/**
 * Reads a HAR file entry by entry and analyses it as it goes, posting what the panel shows (see
 * import-messages.ts): runs in the import worker, or in the panel itself where no worker can
 * start. The file is never one string: the core's streaming reader takes it a chunk of
 * `Blob.stream()` at a time. The exchanges are fed a piece of a body at a time, so a post never
 * waits for a whole large body. Resolves once `done` is posted, or once cancelled.
 */
export async function analyseHarBlob(file: Blob, options: AnalysisOptions, peer: AnalysisPeer): Promise<void> {
  const { post } = peer;
  const analyzer = createAnalyzer(options);
  /** Events of each stream already posted. */
  const posted: number[] = [];
  const read: Exchange[] = [];
  let unposted: Exchange[] = [];
  let unpostedChars = 0;
  let events = 0;
  let most = FIRST_POSTED_EVENTS;
  let analyses = 0;
  let lastPost = performance.now();
  let lastProgress = -Infinity;

  const postExchanges = () => {
    if (unposted.length > 0) post({ kind: 'exchanges', exchanges: unposted });
    unposted = [];
    unpostedChars = 0;
  };
  // Exchanges first: every stream an analysis names has its exchange on the panel's side.
  const postAnalysis = async (): Promise<void> => {
    postExchanges();
    const slices: TableSlice[] = [];
    for (let stream = 0; stream < posted.length; stream++) {
      const table = analyzer.events(stream);
      if (table.length > posted[stream]!) slices.push(sliceOf(stream, table, posted[stream]!, table.length));
      posted[stream] = table.length;
    }
    post({ kind: 'analysis', slices, report: analyzer.report() }, slices.flatMap(transferOf));
    events = 0;
    most = MAX_POSTED_EVENTS;
    analyses++;
    // The first is taken in alone: with it the panel first renders the capture, its longest work.
    const ahead = analyses === 1 ? 0 : MAX_UNTAKEN;
    while (analyses - peer.pacing.taken > ahead && !peer.cancelled()) await peer.pacing.next();
    lastPost = performance.now();
  };
  /** Analyses the exchanges read so far; false once cancelled. */
  const analyse = async (): Promise<boolean> => {
    for (const exchange of read.splice(0)) {
      unposted.push(exchange);
      for (const chunk of exchange.chunks) unpostedChars += chunk.data.length;
      if (unpostedChars >= BATCH_BODY_CHARS) postExchanges();
      let before = 0;
      for (const stream of feedSteps(analyzer, exchange)) {
        if (posted.length <= stream) posted.push(0);
        const length = analyzer.events(stream).length;
        events += length - before;
        before = length;
        if (events >= most || (events > 0 && performance.now() - lastPost >= POST_MS)) {
          await postAnalysis();
          if (peer.cancelled()) return false;
        }
      }
    }
    return true;
  };

  const reader = createHarStreamReader((exchange) => read.push(exchange));
  const stream = file.stream().getReader();
  let result: HarStreamResult;
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (done || peer.cancelled()) break;
      reader.push(value);
      if (performance.now() - lastProgress >= PROGRESS_MS) {
        lastProgress = performance.now();
        post({ kind: 'progress', read: reader.bytes, total: file.size });
      }
      if (reader.failure !== undefined) break;
      if (!(await analyse())) return;
    }
    if (peer.cancelled()) return;
    result = reader.finish();
    if (result.ok) {
      if (!(await analyse())) return;
      await postAnalysis();
      if (peer.cancelled()) return;
    }
  } finally {
    await stream.cancel().catch(() => undefined);
  }
  post({ kind: 'done', result });
}
