import { ImportButton } from '../io/ImportButton';
import { useLens } from './lens-context';

/** What a newcomer sees before any MCP traffic: what the panel does and three ways to start. */
export function EmptyState() {
  const lens = useLens();
  const live = lens.source.value.kind === 'live';
  const dropped = live ? lens.store.drops.value.total : 0;
  return (
    <section class="empty-state" data-testid="empty-state" aria-label="Getting started">
      {dropped > 0 ? (
        // Something was captured, and a cap dropped it: never say that nothing was.
        <>
          <h2 data-testid="empty-dropped">Nothing left to show: {dropped} captured items were dropped</h2>
          <p>The capture's caps dropped what this tab sent before it reached the panel; the dropped counter above says which cap. Reload and capture from start to see it again.</p>
        </>
      ) : (
        <h2>No MCP traffic {live ? 'captured yet' : 'in this file'}</h2>
      )}
      <p>
        This panel shows every MCP stream of the page (Streamable HTTP and HTTP+SSE) on a two-lane timeline, and draws in red every resume where
        the transport event ids and the application's own sequence stop advancing together: the sign of a replica that lost the buffer and
        invented the rest.
      </p>
      <ol>
        <li>Use the page: MCP requests appear here live, while their streams are still open.</li>
        {lens.store.canReload ? (
          <li>
            Missed the start?{' '}
            <button type="button" onClick={() => lens.store.reloadAndCapture()}>
              Reload and capture from start
            </button>
          </li>
        ) : null}
        <li>
          Or open a HAR file from any browser's Network panel ("Save all as HAR"), Playwright's <code>recordHar</code> or the CLI's fixtures:{' '}
          <ImportButton label="Import HAR…" testId="import-har-empty" /> or drop it here.
        </li>
      </ol>
    </section>
  );
}
