/**
 * The proxy's analysis worker (a `node:worker_threads` thread): the live analysis runs here, so
 * that the thread forwarding bytes never waits on it. It applies what the recording posts, in
 * order, reading body bytes from the recording's spool, and answers queries (see
 * analysis-protocol.ts).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createAnalyzer } from '../core/index';
import { createLiveFindings } from '../cli/live-findings';
import { formatText } from '../cli/formats/text';
import type { AnalysisInit, AnalysisQuery, AnswerOf, FromWorker, ToWorker } from './analysis-protocol';
import { MAX_ANALYSIS_BATCH_BYTES } from './caps';
import { readInto } from './spool';

/** The analysis thread's nice value on Linux (0 is the proxy's own, 19 the lowest priority). */
const ANALYSIS_NICE = 10;

const port = parentPort!;
const { options, spool } = workerData as AnalysisInit;
/**
 * When the machine's cores are all busy, forwarding goes first: the proxy is in the path of the
 * user's traffic, and its analysis can catch up once a burst is over. On Linux a nice value
 * belongs to the thread that sets it; elsewhere it would slow the whole proxy, so it is left.
 */
if (process.platform === 'linux') {
  try {
    setPriority(ANALYSIS_NICE);
  } catch {
    // A system that refuses: the analysis runs at the proxy's priority, as it would elsewhere.
  }
}
// The analysis keeps no payloads: the recording holds the bytes, for the HAR and the live view.
const analyzer = createAnalyzer({ ...options, keepPayloads: false });
const liveFindings = createLiveFindings(analyzer);
/** The analyzer's index of each recorded stream (the same numbers, as both count opens in order). */
const streams: number[] = [];
/**
 * Streams whose chunks the analyzer may keep past the call (a JSON body is joined at its end): it
 * gets copies of those, since the batch's buffer goes back to be refilled. An event stream's
 * chunks are decoded as they come, and no chunk is kept without payloads.
 */
const keepsChunks = new Set<number>();
/** A batch's body bytes, read from the spool; reused, as fresh memory costs a page fault per page. */
const batchBytes = new Uint8Array(MAX_ANALYSIS_BATCH_BYTES);

function answer(query: AnalysisQuery): AnswerOf[keyof AnswerOf] {
  switch (query.ask) {
    case 'report':
      return analyzer.report({ final: query.final });
    case 'live':
      return liveFindings();
    case 'final-text': {
      const report = analyzer.report({ final: true });
      const text = formatText({ path: query.path, report, ids: analyzer, skippedEntries: 0, problems: [] });
      return { text, errors: report.summary.errors, warnings: report.summary.warnings };
    }
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'query') {
    let reply: FromWorker;
    try {
      reply = { type: 'answer', id: message.id, value: answer(message.query) };
    } catch (error) {
      reply = { type: 'failed', id: message.id, error: String((error as Error).stack ?? error) };
    }
    return port.postMessage(reply);
  }
  const span = message.to - message.from;
  // One chunk longer than a batch comes alone, in a buffer of its own.
  const bytes = span <= batchBytes.length ? batchBytes : new Uint8Array(span);
  readInto(spool, bytes, message.from, span);
  for (const op of message.ops) {
    switch (op.op) {
      case 'open':
        streams[op.stream] = analyzer.open(op.request);
        break;
      case 'respond':
        if (!isEventStream(op.response.headers)) keepsChunks.add(op.stream);
        analyzer.respond(streams[op.stream]!, op.response);
        break;
      case 'chunk':
      {
        const view = bytes.subarray(op.at - message.from, op.at - message.from + op.length);
        analyzer.chunk(streams[op.stream]!, { time: op.time, data: keepsChunks.has(op.stream) ? view.slice() : view });
      }
        break;
      case 'end':
        keepsChunks.delete(op.stream);
        analyzer.end(streams[op.stream]!, op.end);
        break;
    }
  }
  port.postMessage({ type: 'ack' } satisfies FromWorker);
});

function isEventStream(headers: readonly { name: string; value: string }[]): boolean {
  return headers.some((h) => h.name.toLowerCase() === 'content-type' && /^\s*text\/event-stream/i.test(h.value));
}
