import { createTabWebRequest, type TabWebRequestDeps } from './tab-webrequest';
import type { WebRequestApi } from './webrequest-api';

/**
 * The webRequest capture behind the "Capture workers and early requests" switch in Firefox.
 * `browser.webRequest` exists only once the optional permissions are granted, so it is looked up
 * when the switch asks, not at start-up: with the switch off no listener is ever added.
 */
export function firefoxFidelity(api: () => WebRequestApi | undefined, deps: Omit<TabWebRequestDeps, 'api'>) {
  let capture: ReturnType<typeof createTabWebRequest> | null = null;
  const get = () => {
    const found = api();
    if (found && typeof found.filterResponseData === 'function') capture ??= createTabWebRequest({ ...deps, api: found });
    return capture;
  };
  return {
    start(tabId: number): void {
      const c = get();
      if (!c) return deps.status(tabId, false, 0, 'the webRequest permissions are not granted');
      c.start(tabId);
    },
    stop(tabId: number): void {
      capture?.stop(tabId);
    },
  };
}
