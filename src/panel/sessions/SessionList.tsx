import type { SessionReport } from '../../core/index';
import { useLens } from '../app/lens-context';
import { worstSeverity } from '../model/severity';
import type { NavigationMark } from '../navigation-log';
import { plural } from '../text/plural';
import { shortId } from '../text/visible';
import { NavigationMarker } from './NavigationMarker';

type Row = { time: number; session: SessionReport } | { time: number; navigation: NavigationMark };

/**
 * The sessions as a list box: transport, revision, stream and event counts, and a badge coloured
 * by the worst finding. Up/Down select the previous or next session. In the live capture the
 * page's navigations sit between them, by time: sessions survive a navigation.
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
  const order = rows.flatMap((r) => ('session' in r ? [r.session.key] : []));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const at = order.indexOf(current ?? '');
    const next = order[Math.min(order.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next === undefined) return;
    e.preventDefault();
    lens.selection.selectSession(next);
    (e.currentTarget as HTMLElement).querySelector<HTMLElement>(`[data-testid="session-row"][data-index="${order.indexOf(next)}"]`)?.focus();
  };
  return (
    <nav class="sessions" aria-label="Sessions">
      <h2 id="lens-sessions-title">
        Sessions <span class="count">{sessions.length}</span>
      </h2>
      <ul role="listbox" aria-labelledby="lens-sessions-title" onKeyDown={onKeyDown}>
        {rows.map((row) => {
          if ('navigation' in row) return <NavigationMarker key={`nav ${row.time} ${row.navigation.url}`} mark={row.navigation} />;
          const s = row.session;
          const errors = s.findings.filter((f) => f.severity === 'error').length;
          const worst = worstSeverity(s.findings);
          const events = s.streams.reduce((n, st) => n + st.events, 0);
          const worstCount = s.findings.filter((f) => f.severity === worst).length;
          const selected = s.key === current;
          return (
            <li
              key={s.key}
              role="option"
              class="session-row"
              data-testid="session-row"
              data-key={s.key}
              data-index={order.indexOf(s.key)}
              data-transport={s.transport}
              data-errors={errors}
              data-severity={worst ?? undefined}
              aria-selected={selected ? 'true' : 'false'}
              tabIndex={selected ? 0 : -1}
              title={s.key}
              onClick={() => lens.selection.selectSession(s.key)}
            >
              <span class="session-key">{shortId(s.key, 24)}</span>
              <span class="session-meta">
                {s.transport} · {s.protocolVersion ?? 'revision unknown'}
              </span>
              <span class="session-meta">
                {plural(s.streams.length, 'stream')} · {plural(events, 'event')}
              </span>
              {worst ? (
                <>
                  <span class={`badge badge-${worst}`} data-testid={worst === 'error' ? 'error-badge' : 'session-badge'} data-severity={worst} aria-hidden="true">
                    {worstCount}
                  </span>
                  <span class="sr-only">, {plural(worstCount, `${worst} finding`)}</span>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
