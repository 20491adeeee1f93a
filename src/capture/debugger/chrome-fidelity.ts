import { createTabDebugger, type DebuggerApi, type TabDebugger, type TabDebuggerDeps } from './tab-debugger';

/**
 * The debugger behind the "Capture workers and early requests" switch. `chrome.debugger` exists
 * only once the optional `debugger` permission is granted, so it is looked up when the switch
 * asks, not at start-up; without it the panel is told why nothing is attached.
 */
export function chromeFidelity(api: () => DebuggerApi | undefined, deps: Omit<TabDebuggerDeps, 'api'>) {
  let tabDebugger: TabDebugger | null = null;
  const get = () => {
    const found = api();
    if (found) tabDebugger ??= createTabDebugger({ ...deps, api: found });
    return tabDebugger;
  };
  return {
    start(tabId: number): void {
      const d = get();
      if (!d) return deps.status(tabId, false, 0, 'the debugger permission is not granted');
      void d.start(tabId);
    },
    stop(tabId: number): void {
      void get()?.stop(tabId);
    },
  };
}
