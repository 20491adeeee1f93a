import type { CaptureStore } from './capture-store';
import { DropCounter } from './DropCounter';
import { FindingList } from './FindingList';
import { SessionList } from './SessionList';
import { TabChooser } from './TabChooser';

/** The minimal panel: toolbar, findings, then sessions with their streams and events. */
export function App({ store }: { store: CaptureStore }) {
  const report = store.report.value;
  return (
    <main>
      <header class="toolbar">
        <strong>MCP Streams</strong>
        {store.canReload ? (
          <button type="button" data-testid="reload-capture" onClick={() => store.reloadAndCapture()}>
            Reload and capture from start
          </button>
        ) : null}
        <DropCounter drops={store.drops.value} />
        {report ? (
          <span data-testid="summary" data-events={report.summary.events} data-streams={report.summary.streams}>
            {report.summary.sessions} sessions · {report.summary.streams} streams · {report.summary.events} events · {report.summary.errors} errors
          </span>
        ) : null}
      </header>
      <TabChooser store={store} />
      {report ? <FindingList report={report} /> : null}
      {report ? <SessionList report={report} store={store} /> : <p class="empty">Waiting for the capture…</p>}
    </main>
  );
}
