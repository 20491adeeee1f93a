import type { StreamReport } from '../../core/index';
import { useLens } from '../app/lens-context';
import { clip, shortId, visibleLine } from '../text/visible';
import { EventRows } from './EventRows';

/** The selected session's streams, each with its (filtered) events. */
export function StreamList() {
  const lens = useLens();
  const session = lens.session.value;
  if (!session) return null;
  const data = lens.timelineData.value;
  // While filtering, a stream with no matching event is left out too.
  const filtering = lens.filters.active.value;
  const shown = new Set(data?.streams.filter((s) => !filtering || s.count > 0).map((s) => s.stream));
  return (
    <section class="streams" aria-label="Streams and events">
      <h2>
        Streams <span class="count">{session.streams.length}</span>
      </h2>
      <ul>
        {session.streams.filter((s) => shown.has(s.index)).map((s) => (
          <StreamItem key={s.index} stream={s} />
        ))}
      </ul>
    </section>
  );
}

function StreamItem({ stream }: { stream: StreamReport }) {
  const lens = useLens();
  const source = lens.source.value;
  const exchange = source.exchange(stream.index);
  const provenance = source.provenance?.(stream.index);
  // The report says complete/reset/open; the capture also knows "cancelled by the page".
  const end = exchange?.end.state ?? stream.end;
  const error = provenance?.networkError || exchange?.end.error;
  const marks = lens.timelineData.value?.streams.find((m) => m.stream === stream.index);
  return (
    <li class={`stream stream-${end}`}>
      <div
        class="stream-row"
        data-testid="stream-row"
        data-index={stream.index}
        data-method={stream.method}
        data-end={end}
        data-status={stream.status}
        data-last-event-id={stream.lastEventId ?? ''}
        data-events={stream.events}
        data-source={provenance?.source ?? 'tap'}
      >
        <span class="stream-swatch" data-colour={marks ? marks.colour % 8 : undefined} aria-hidden="true" />
        <span class="stream-index">#{stream.index}</span> <span class="stream-method">{stream.method}</span>{' '}
        <span class="stream-url">{visibleLine(clip(stream.url, 200))}</span> <span class="stream-status">{stream.status || '-'}</span>{' '}
        <span class="stream-end">{end}</span>
        {error ? <span class="stream-error"> ({visibleLine(clip(error, 120))})</span> : null}
        {stream.lastEventId !== null ? <span class="stream-resume"> Last-Event-ID {shortId(stream.lastEventId, 20)}</span> : null}
        {provenance?.source === 'network' ? <span class="muted"> (from the network panel)</span> : null}
        <span class="stream-count"> {stream.events} events</span>
      </div>
      <EventRows stream={stream.index} events={source.events(stream.index)} marks={marks} />
    </li>
  );
}
