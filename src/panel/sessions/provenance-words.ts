import type { LoggedExchange } from '../exchange-log';

/**
 * What a stream row says about who captured it; the tap's copies, the usual case, say nothing.
 * Keyed by every source, so a new producer cannot go unlabelled (or borrow another's words).
 */
export const PROVENANCE_WORDS: Record<LoggedExchange['source'], string> = {
  tap: '',
  network: 'from the network panel',
  debugger: 'by the debugger',
  'network-filter': "by the browser's network filter",
};
