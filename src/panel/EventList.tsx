import type { EventRecord } from '../core/index';

/** Rows the panel renders per stream; the count shows how many there are in all. */
export const MAX_EVENT_ROWS = 200;

/** The latest events of one stream. Data is rendered as text, never as HTML: the page wrote it. */
export function EventList({ events }: { events: readonly EventRecord[] }) {
  const shown = events.length > MAX_EVENT_ROWS ? events.slice(-MAX_EVENT_ROWS) : events;
  return (
    <ol class="events" start={events.length - shown.length}>
      {shown.map((e, i) => (
        <li key={events.length - shown.length + i} data-testid="event-row" data-id={e.id ?? ''} data-truncated={e.truncated ? 'true' : undefined}>
          <span class="event-id">{e.id ?? '-'}</span>
          {e.event ? <span class="event-type">{e.event}</span> : null}
          {e.truncated ? <span class="event-truncated">truncated</span> : null}
          <span class="event-data">{e.data}</span>
        </li>
      ))}
    </ol>
  );
}
