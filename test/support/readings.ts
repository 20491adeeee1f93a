import type { AnalysisOptions } from '../../src/core/index';

/**
 * The ways of reading a capture that must give the same report: the learned readers and the
 * general one (see core/analysis/ingest.ts), the packed store and its plain twins (core/store/),
 * with and without the events' payloads kept.
 * Rule tests run under each, so a rule that holds only one way fails the suite.
 */
export const READINGS: readonly { name: string; options: AnalysisOptions }[] = [
  { name: 'learned readers, packed store', options: {} },
  { name: 'general reader only', options: { learnedReaders: false } },
  { name: 'plain store', options: { store: 'plain' } },
  { name: 'without payloads', options: { keepPayloads: false } },
];
