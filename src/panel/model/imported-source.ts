import { signal } from '@preact/signals';
import { createAnalyzer, feed, type AnalysisOptions, type Analyzer, type Exchange } from '../../core/index';
import type { CaptureSource } from './capture-source';

/**
 * Exchanges already in memory (HAR text, a test's capture) as a capture: analysed here in one go,
 * again whenever the options change. A file the user picks is analysed off the main thread
 * instead (io/file-source.ts).
 */
export function createImportedSource(id: string, label: string, exchanges: readonly Exchange[], options: AnalysisOptions): CaptureSource {
  let analyzer: Analyzer = createAnalyzer(options);
  feed(analyzer, exchanges);
  const report = signal(analyzer.report());
  return {
    id,
    kind: 'imported',
    label,
    report,
    events: (stream) => analyzer.events(stream),
    // `feed` numbers streams in input order, so a stream index is an index into `exchanges`.
    exchange: (stream) => exchanges[stream],
    reanalyse(next) {
      analyzer = createAnalyzer(next);
      feed(analyzer, exchanges);
      report.value = analyzer.report();
    },
  };
}
