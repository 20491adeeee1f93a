import { signal } from '@preact/signals';
import { createAnalyzer, feed, type AnalysisOptions, type Analyzer, type Exchange } from '../../core/index';
import type { CaptureSource } from './capture-source';

/** A finished capture (an imported HAR): analysed in one go, again whenever the options change. */
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
