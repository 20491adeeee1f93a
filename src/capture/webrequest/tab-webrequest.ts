import { createCaptureRun, type DeliverCaptured } from '../background-capture';
import { createFilterNetwork } from './filter-network';
import type { RequestInfo } from '../../core/index';
import type { Listener, RequestDetails, WebRequestApi } from './webrequest-api';

const withoutFragment = (url: string) => url.split('#', 1)[0]!;

/** The pages MCP clients run in: the same origins the content scripts match. */
const URLS = ['http://*/*', 'https://*/*'];

export interface TabWebRequestDeps {
  api: WebRequestApi;
  deliver: DeliverCaptured;
  /** Listening (or no longer) on the tab; `error` when listening failed. */
  status(tabId: number, attached: boolean, workers: number, error?: string): void;
  /** A page tap of the tab has opened this request: it is left to the tap, so it is kept once. */
  tapOpened(tabId: number, request: RequestInfo): boolean;
  /** The tab's current URL (its top document's). */
  tabUrl(tabId: number): Promise<string | undefined>;
  worker: string;
}

/**
 * Full-fidelity capture of inspected tabs in Firefox, through `webRequest`: listeners filtered to
 * the tab exist only while a panel of the tab asks for them, and are removed when it stops asking
 * or goes away. Worker requests carry their tab's id in Firefox, so they are seen here; each MCP
 * response is read through a StreamFilter that passes every byte on unchanged.
 */
export function createTabWebRequest(deps: TabWebRequestDeps) {
  const runs = new Map<number, { listeners: [keyof WebRequestApi, Listener][]; network: ReturnType<typeof createFilterNetwork>; run: ReturnType<typeof createCaptureRun> }>();
  let starts = 0;

  function start(tabId: number): void {
    if (runs.has(tabId)) return;
    // The top document's URL: a request it makes is the page's own (the tap's), whereas a
    // Worker's requests name the Worker's script as their document.
    let top: string | undefined;
    void deps.tabUrl(tabId).then((url) => void (top ??= url), () => undefined);
    const pageOwn = (d: RequestDetails, request: RequestInfo) =>
      (top !== undefined && d.documentUrl !== undefined && withoutFragment(d.documentUrl) === withoutFragment(top)) || deps.tapOpened(tabId, request);
    const run = createCaptureRun(tabId, `webrequest-${deps.worker}-${tabId}-${starts++}`, deps.deliver);
    const network = createFilterNetwork({
      nextStream: run.nextStream,
      emit: run.emit,
      drop: run.drop,
      filterResponseData: (requestId) => deps.api.filterResponseData(requestId),
      wanted: (details, request) => !pageOwn(details, request),
      now: () => Date.now(),
    });
    const filter = { urls: URLS, tabId };
    const listeners: [keyof WebRequestApi, Listener, string[]][] = [
      [
        'onBeforeRequest',
        (d) => {
          if (d.type === 'main_frame') top = d.url;
          network.beforeRequest(d);
        },
        ['requestBody'],
      ],
      ['onBeforeSendHeaders', (d) => network.beforeSendHeaders(d), ['requestHeaders']],
      // Blocking: the response waits for the listener, so the filter is in place before its body.
      ['onHeadersReceived', (d) => void network.headersReceived(d), ['blocking', 'responseHeaders']],
      ['onCompleted', (d) => network.completed(d), []],
      ['onErrorOccurred', (d) => network.errorOccurred(d), []],
    ];
    try {
      // onErrorOccurred takes no third argument at all (an empty one is refused).
      for (const [event, fn, spec] of listeners) (deps.api[event] as WebRequestApi['onCompleted']).addListener(fn, filter, ...(spec.length > 0 ? [spec] : []));
    } catch (error) {
      for (const [event, fn] of listeners) (deps.api[event] as WebRequestApi['onCompleted']).removeListener(fn);
      return deps.status(tabId, false, 0, error instanceof Error ? error.message : String(error));
    }
    runs.set(tabId, { listeners: listeners.map(([e, fn]) => [e, fn]), network, run });
    deps.status(tabId, true, 0);
  }

  function stop(tabId: number): void {
    const r = runs.get(tabId);
    if (!r) return;
    runs.delete(tabId);
    for (const [event, fn] of r.listeners) (deps.api[event] as WebRequestApi['onCompleted']).removeListener(fn);
    r.network.detach(Date.now());
    r.run.flush();
    deps.status(tabId, false, 0);
  }

  return { start, stop, listening: (tabId: number) => runs.has(tabId) };
}
