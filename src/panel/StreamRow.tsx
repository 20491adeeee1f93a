import type { EventRecord, StreamReport } from '../core/index';
import { EventList } from './EventList';
import type { LoggedExchange } from './exchange-log';

export interface StreamRowProps {
  stream: StreamReport;
  exchange: LoggedExchange | undefined;
  events: readonly EventRecord[];
}

/** One HTTP exchange of a session: method, URL, status, how it ended, then its events. */
export function StreamRow({ stream, exchange, events }: StreamRowProps) {
  // The report knows complete/reset/open; the capture also knows "cancelled by the page".
  const end = exchange?.end.state ?? stream.end;
  const error = exchange?.networkError || exchange?.end.error;
  return (
    <li class={`stream stream-${end}`}>
      <div
        data-testid="stream-row"
        data-index={stream.index}
        data-method={stream.method}
        data-end={end}
        data-status={stream.status}
        data-last-event-id={stream.lastEventId ?? ''}
        data-events={stream.events}
        data-source={exchange?.source ?? 'tap'}
      >
        <span class="stream-index">#{stream.index}</span> <span class="stream-method">{stream.method}</span>{' '}
        <span class="stream-url">{stream.url}</span> <span class="stream-status">{stream.status || '-'}</span>{' '}
        <span class="stream-end">{end}</span>
        {error ? <span class="stream-error"> ({error})</span> : null}
        {stream.lastEventId !== null ? <span class="stream-resume"> Last-Event-ID: {stream.lastEventId}</span> : null}
        {exchange?.source === 'network' ? <span class="stream-source"> (from the network panel)</span> : null}
        <span class="stream-count"> {stream.events} events</span>
      </div>
      <EventList events={events} />
    </li>
  );
}
