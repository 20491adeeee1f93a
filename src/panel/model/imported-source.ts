import { signal } from '@preact/signals';
import { createAnalyzer, feed, type AnalysisOptions, type Analyzer, type Exchange } from '../../core/index';
import type { CaptureSource } from './capture-source';

/**
 * A finished capture (an imported HAR): analysed in one go, again whenever the options change.
 * `analyzed` is an analysis already fed these exchanges (the import feeds one as the file is read).
 */
export function createImportedSource(id: string, label: string, exchanges: readonly Exchange[], options: AnalysisOptions, analyzed?: Analyzer): CaptureSource {
  let analyzer: Analyzer = analyzed ?? createAnalyzer(options);
  if (!analyzed) feed(analyzer, exchanges);
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
