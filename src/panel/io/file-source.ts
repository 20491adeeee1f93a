import { signal } from '@preact/signals';
import type { AnalysisOptions, Exchange, HarStreamResult, Report } from '../../core/index';
import { afterNextPaint } from '../after-paint';
import { nextTask } from '../next-task';
import { whenIdle } from '../when-idle';
import type { CaptureSource } from '../model/capture-source';
import { analyseOffThread, type AnalysisRun } from './analyse-off-thread';
import type { ImportReply } from './import-messages';
import { createTableCopy, type TableCopy } from './table-copy';

/** A capture read from a file and analysed off the main thread (see {@link createFileSource}). */
export interface FileSource extends CaptureSource {
  /** The verdict of the latest analysis once it is done; undefined when it was cancelled. */
  settled(): Promise<HarStreamResult | undefined>;
  /** Stops the analysis under way. */
  cancel(): void;
}

/** What the source tells its importer as an analysis goes. */
export interface FileSourceHooks {
  progress(read: number, total: number): void;
  /** A report was taken in (the capture has grown). */
  analysed(report: Report): void;
}

/** What one analysis of the file has handed over so far. */
interface Analysed {
  tables: Map<number, TableCopy>;
  exchanges: Exchange[];
}

/** How an analysis is started: off the main thread, or (in tests) however a test likes; see {@link analyseOffThread}. */
export type StartAnalysis = (file: Blob, options: AnalysisOptions, onReply: (reply: ImportReply) => void) => AnalysisRun;

/**
 * A HAR file as a capture. The import worker reads and analyses it (analyse-off-thread.ts) and
 * hands over the exchanges, each stream's events and the report as it goes; the views read the
 * copies synchronously, as they read a live analysis. Each analysis taken in is reported to the
 * worker once painted, which runs at most `MAX_UNTAKEN` analyses ahead (analyse-har-blob.ts). New
 * options run the analysis again from the file: what is shown stays until the new analysis hands
 * over its first report, then the capture grows again from there, as on import.
 */
export function createFileSource(id: string, label: string, file: Blob, options: AnalysisOptions, hooks: FileSourceHooks, start: StartAnalysis = analyseOffThread): FileSource {
  const report = signal<Report | null>(null);
  let shown: Analysed = { tables: new Map(), exchanges: [] };
  let latest: { run: AnalysisRun; verdict: Promise<HarStreamResult | undefined> } | undefined;

  const tableOf = (analysed: Analysed, stream: number): TableCopy => {
    let table = analysed.tables.get(stream);
    // Kept even while empty: the views key what they built from a table on the table itself.
    if (!table) analysed.tables.set(stream, (table = createTableCopy()));
    return table;
  };

  const analyse = (next: AnalysisOptions) => {
    latest?.run.cancel();
    const analysed: Analysed = { tables: new Map(), exchanges: [] };
    let verdict: HarStreamResult | undefined;
    let shownAll = Promise.resolve();
    const run = start(file, next, (reply) => {
      if (reply.kind === 'progress') hooks.progress(reply.read, reply.total);
      else if (reply.kind === 'exchanges') for (const exchange of reply.exchanges) analysed.exchanges.push(exchange);
      else if (reply.kind === 'done') verdict = reply.result;
      else {
        for (const slice of reply.slices) tableOf(analysed, slice.stream).append(slice);
        // Shown in a task of its own: this one has read the message and taken in its events.
        shownAll = new Promise((resolve) => nextTask(() => resolve(show(reply.report))));
      }
    });
    const show = (analysedReport: Report) => {
      if (latest?.run !== run) return;
      shown = analysed;
      report.value = analysedReport;
      hooks.analysed(analysedReport);
      // Taken once painted, and once the panel has nothing else queued (the rest of a first
      // render): an analysis made meanwhile would take the core that work needs.
      afterNextPaint(() => whenIdle(() => run.taken()));
    };
    // The verdict once the last analysis handed over is shown too.
    latest = { run, verdict: run.done.then(() => shownAll).then(() => verdict) };
  };
  analyse(options);

  return {
    id,
    kind: 'imported',
    label,
    report,
    events: (stream) => tableOf(shown, stream),
    // Streams are numbered in file order, so a stream index is an index into the exchanges.
    exchange: (stream) => shown.exchanges[stream],
    reanalyse: analyse,
    async settled() {
      for (;;) {
        const awaited = latest!;
        const verdict = await awaited.verdict;
        if (awaited === latest) return verdict;
      }
    },
    cancel: () => latest?.run.cancel(),
  };
}
