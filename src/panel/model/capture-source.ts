import type { ReadonlySignal } from '@preact/signals';
import type { AnalysisOptions, EventTable, Exchange, Report } from '../../core/index';
import type { LoggedExchange } from '../exchange-log';

/**
 * One capture the panel can show: the live one, or a HAR file the user imported. Everything the
 * views need goes through this, so they never care where the traffic came from.
 */
export interface CaptureSource {
  id: string;
  kind: 'live' | 'imported';
  /** What the source picker shows: "Live capture" or the file name. */
  label: string;
  report: ReadonlySignal<Report | null>;
  /** The analysed events of one stream (the analysis' own table: read, never change). */
  events(stream: number): EventTable;
  /** The HTTP exchange behind a stream: headers, body chunks, how it ended. */
  exchange(stream: number): Exchange | undefined;
  /** How the live capture saw a stream: by the page tap, a background producer, or only by the network panel. */
  provenance?(stream: number): { source: LoggedExchange['source']; networkError?: string } | undefined;
  /** Runs the analysis again, e.g. after the app-sequence pointers changed. */
  reanalyse(options: AnalysisOptions): void;
  /** Stops an analysis under way, for a capture that is closed (an import still being read). */
  cancel?(): void;
}
