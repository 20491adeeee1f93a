import { DropCounter } from '../DropCounter';
import { ImportButton } from '../io/ImportButton';
import { captureHar, reportJson, sessionHar } from '../io/export';
import { plural } from '../text/plural';
import { useLens } from './lens-context';

/**
 * Capture picker, import/export, reload, settings, and what was dropped on the way: one line,
 * whose labels shorten as the panel narrows (lens.css).
 */
export function Toolbar({ settingsOpen, toggleSettings }: { settingsOpen: boolean; toggleSettings: () => void }) {
  const lens = useLens();
  const sources = lens.workspace.sources.value;
  const source = lens.source.value;
  const report = lens.report.value;
  const session = lens.session.value;
  const redact = lens.settings.settings.value.redact;
  return (
    <header class="toolbar" aria-label="MCP Streams toolbar">
      <strong class="title">MCP Streams</strong>
      {sources.length > 1 ? (
        <label>
          <span class="sr-only">Capture shown</span>
          <select data-testid="source" value={source.id} onChange={(e) => lens.workspace.activate((e.currentTarget as HTMLSelectElement).value)}>
            {sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {source.kind === 'imported' ? (
        <button type="button" onClick={() => lens.workspace.close(source.id)}>
          Close file
        </button>
      ) : null}
      <ImportButton />
      <button type="button" data-testid="export-har" disabled={!session} onClick={() => session && lens.adapter.download(sessionHar(source, session, redact))}>
        Export <span class="long">session </span>HAR{redact ? '' : ' (unredacted)'}
      </button>
      <button type="button" data-testid="export-capture" disabled={!report?.sessions.length} onClick={() => report && lens.adapter.download(captureHar(source, report, redact))}>
        <span class="long">Export </span>all sessions<span class="long"> HAR</span>
      </button>
      <button type="button" data-testid="export-report" disabled={!report} onClick={() => report && lens.adapter.download(reportJson(report, redact ? { source } : false))}>
        <span class="long">Export </span>report JSON
      </button>
      {lens.store.canReload ? (
        <button type="button" data-testid="reload-capture" title="Reload the inspected page and capture from its first request" onClick={() => lens.store.reloadAndCapture()}>
          Reload<span class="long"> and capture from start</span>
        </button>
      ) : null}
      <button type="button" data-testid="settings-toggle" aria-expanded={settingsOpen} onClick={toggleSettings}>
        Settings
      </button>
      <DropCounter drops={lens.store.drops.value} />
      {report ? (
        <span class="summary" data-testid="summary" data-events={report.summary.events} data-streams={report.summary.streams}>
          {plural(report.summary.sessions, 'session')} · {plural(report.summary.streams, 'stream')} · {plural(report.summary.events, 'event')} ·{' '}
          <span class={report.summary.errors > 0 ? 'summary-errors' : ''}>{plural(report.summary.errors, 'error')}</span>
          {report.summary.warnings > 0 ? <span class="summary-warnings"> · {plural(report.summary.warnings, 'warning')}</span> : null}
        </span>
      ) : null}
    </header>
  );
}
