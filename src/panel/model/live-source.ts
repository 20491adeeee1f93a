import type { Exchange } from '../../core/index';
import type { CaptureStore } from '../capture-store';
import type { LoggedExchange } from '../exchange-log';
import type { CaptureSource } from './capture-source';

export const LIVE_SOURCE_ID = 'live';

/** The live capture (the capture store fed by the extension or a replay) as a source. */
export function createLiveSource(store: CaptureStore): CaptureSource {
  return {
    id: LIVE_SOURCE_ID,
    kind: 'live',
    label: 'Live capture',
    report: store.report,
    events: (stream) => store.events(stream),
    exchange(stream) {
      const logged = store.streams.value.get(stream);
      return logged ? toExchange(logged) : undefined;
    },
    provenance(stream) {
      const logged = store.streams.value.get(stream);
      if (!logged) return undefined;
      return logged.networkError === undefined ? { source: logged.source } : { source: logged.source, networkError: logged.networkError };
    },
    reanalyse(options) {
      store.setOptions(options);
    },
  };
}

export function toExchange(e: LoggedExchange): Exchange {
  return {
    ...e.request,
    status: e.response?.status ?? 0,
    responseHeaders: e.response?.headers ?? [],
    chunks: e.chunks,
    end: e.end,
  };
}
