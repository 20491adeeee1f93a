import type { SessionReport, StreamReport } from '../../core/index';
import { useLens } from '../app/lens-context';
import type { StreamMarks } from '../timeline/marks';
import { plural } from '../text/plural';
import { PROVENANCE_WORDS } from './provenance-words';
import { clip, shortId, visibleLine } from '../text/visible';

/**
 * A stream's row in the table: what it carries (`tools/call long_task · id 1`), its status and
 * how it ended, and how many events it delivered, or that its body was not captured. One line
 * (HEAD_PX tall); the whole of it is in the tooltip.
 */
export function StreamHeader(props: { session: SessionReport; stream: StreamReport; marks: StreamMarks | undefined; expanded: boolean; toggle: () => void }) {
  const { session, stream, marks, expanded, toggle } = props;
  const lens = useLens();
  const source = lens.source.value;
  const exchange = source.exchange(stream.index);
  const provenance = source.provenance?.(stream.index);
  // The report says complete/reset/open/unknown; the capture also knows "cancelled by the page".
  const end = exchange?.end.state ?? stream.end;
  const error = provenance?.networkError || exchange?.end.error;
  const label = lens.requests.value.label(session, stream.index);
  const absent = stream.body === 'absent';
  const selected = lens.selection.stream.value === stream.index && lens.selection.mark.value === null;
  const count = absent ? 'body not captured' : plural(stream.events, 'event');
  const resume = stream.lastEventId !== null ? ` · Last-Event-ID ${shortId(stream.lastEventId, 20)}` : '';
  return (
    <div
      class={`stream-row stream-${end}${selected ? ' selected' : ''}`}
      data-testid="stream-row"
      data-index={stream.index}
      data-method={stream.method}
      data-end={end}
      data-status={stream.status}
      data-last-event-id={stream.lastEventId ?? ''}
      data-events={stream.events}
      data-body={stream.body}
      data-source={provenance?.source ?? 'tap'}
      title={`#${stream.index} ${label}: ${stream.method} ${visibleLine(clip(stream.url, 300))} → ${stream.status || 'no response'}, ${end}${error ? ` (${visibleLine(clip(error, 120))})` : ''}${resume}, ${count}`}
    >
      <button type="button" class="stream-toggle" aria-expanded={expanded} aria-label={`${expanded ? 'Collapse' : 'Expand'} stream #${stream.index}`} onClick={toggle}>
        {expanded ? '▾' : '▸'}
      </button>
      <button type="button" class="stream-name" aria-pressed={selected} onClick={() => lens.selection.selectStream(stream.index)}>
        <span class="stream-swatch" data-colour={marks ? marks.colour % 8 : undefined} aria-hidden="true" />
        <span class="stream-index">#{stream.index}</span> <span class="stream-label" data-testid="stream-label">{label}</span>
      </button>
      <span class="stream-status">{stream.status || 'no response'}</span>
      <span class="stream-end">{end}</span>
      {error ? <span class="stream-error">{visibleLine(clip(error, 120))}</span> : null}
      {resume ? <span class="stream-resume">{resume.slice(3)}</span> : null}
      {provenance && PROVENANCE_WORDS[provenance.source] ? <span class="muted">{PROVENANCE_WORDS[provenance.source]}</span> : null}
      <span class={`stream-count${absent ? ' stream-absent' : ''}`}>{count}</span>
    </div>
  );
}
