import type { SessionReport } from '../../core/index';
import { useLens } from '../app/lens-context';
import type { NavigationMark } from '../navigation-log';
import { shortId } from '../text/visible';
import { NavigationMarker } from './NavigationMarker';

type Row = { time: number; session: SessionReport } | { time: number; navigation: NavigationMark };

/**
 * One row per session: transport, revision, stream and event counts, a red error badge. In the
 * live capture the page's navigations sit between them, by time: sessions survive a navigation.
 */
export function SessionList() {
  const lens = useLens();
  const sessions = lens.report.value?.sessions ?? [];
  const current = lens.session.value?.key;
  const source = lens.source.value;
  const navigations = source.kind === 'live' ? lens.store.navigations.value : [];
  const startOf = (s: SessionReport) => Math.min(...s.streams.map((st) => source.exchange(st.index)?.startTime ?? Infinity));
  // A stable sort keeps the report's order for sessions; each navigation lands before the sessions that started after it.
  const rows: Row[] = [...sessions.map((session) => ({ time: startOf(session), session })), ...navigations.map((navigation) => ({ time: navigation.time, navigation }))].sort(
    (a, b) => a.time - b.time,
  );
  return (
    <nav class="sessions" aria-label="Sessions">
      <h2>
        Sessions <span class="count">{sessions.length}</span>
      </h2>
      <ul>
        {rows.map((row) => {
          if ('navigation' in row) return <NavigationMarker key={`nav ${row.time} ${row.navigation.url}`} mark={row.navigation} />;
          const s = row.session;
          const errors = s.findings.filter((f) => f.severity === 'error').length;
          const events = s.streams.reduce((n, st) => n + st.events, 0);
          return (
            <li key={s.key}>
              <button
                type="button"
                class="session-row"
                data-testid="session-row"
                data-key={s.key}
                data-transport={s.transport}
                data-errors={errors}
                aria-pressed={s.key === current}
                title={s.key}
                onClick={() => lens.selection.selectSession(s.key)}
              >
                <span class="session-key">{shortId(s.key, 24)}</span>
                <span class="session-meta">
                  {s.transport} · {s.protocolVersion ?? 'revision unknown'}
                </span>
                <span class="session-meta">
                  {s.streams.length} streams · {events} events
                </span>
                {errors > 0 ? (
                  <span class="badge badge-error" data-testid="error-badge" aria-label={`${errors} error findings`}>
                    {errors}
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
