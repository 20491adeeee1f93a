import type { Report } from '../core/index';
import type { CaptureStore } from './capture-store';
import { StreamRow } from './StreamRow';

/** Every session of the report with its streams, newest last. */
export function SessionList({ report, store }: { report: Report; store: CaptureStore }) {
  const streams = store.streams.value;
  if (report.sessions.length === 0) return <p class="empty">No MCP traffic captured yet.</p>;
  return (
    <ul class="sessions">
      {report.sessions.map((s) => (
        <li key={s.key} class="session">
          <div data-testid="session-row" data-key={s.key} data-transport={s.transport}>
            <strong>{s.key}</strong> {s.transport} {s.protocolVersion ?? ''} · {s.streams.length} streams
            {s.findings.some((f) => f.severity === 'error') ? <span class="badge badge-error">{s.findings.length}</span> : null}
          </div>
          <ul class="streams">
            {s.streams.map((st) => (
              <StreamRow key={st.index} stream={st} exchange={streams.get(st.index)} events={store.events(st.index)} />
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
