import { useLens } from '../app/lens-context';
import { shortId } from '../text/visible';

/** One row per session: transport, revision, stream and event counts, a red error badge. */
export function SessionList() {
  const lens = useLens();
  const sessions = lens.report.value?.sessions ?? [];
  const current = lens.session.value?.key;
  return (
    <nav class="sessions" aria-label="Sessions">
      <h2>
        Sessions <span class="count">{sessions.length}</span>
      </h2>
      <ul>
        {sessions.map((s) => {
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
