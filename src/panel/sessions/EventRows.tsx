import { useMemo } from 'preact/hooks';
import type { EventTable } from '../../core/index';
import { useLens } from '../app/lens-context';
import { MARK_DESYNC, MARK_ERROR, MARK_WARNING, type StreamMarks } from '../timeline/marks';
import { clip, middleId, visibleLine } from '../text/visible';
import { ROW_PX } from './table-rows';

/** Characters of data shown in a row; the detail shows all of it. */
const ROW_DATA_CHARS = 240;

export interface RowsProps {
  stream: number;
  events: EventTable;
  marks: StreamMarks;
  /** Rows [from, to) of the stream's `count` shown rows are rendered. */
  from: number;
  to: number;
  count: number;
  order: 'asc' | 'desc';
  /** Epoch ms of the timeline's origin: times are shown from it, like the axis. */
  origin: number;
  /** What a result answers: the method of the request with its id. */
  methodOf: (idKey: string) => string | undefined;
}

const ms = (x: number): string => `${x.toFixed(x < 10 && x > -10 ? 1 : 0)} ms`;

/**
 * A stream's events as table rows (id, event, method or role, app_seq, time, Δ, data), filtered
 * like the timeline, in time order either way. Only rows [from, to) are elements; padding of the
 * same height stands for the others. Data is rendered as text, never as HTML: the page wrote it.
 */
export function EventRows({ stream, events, marks, from, to, count, order, origin, methodOf }: RowsProps) {
  const lens = useLens();
  const selected = lens.selection.mark.value;
  const selectedEvent = selected?.stream === stream ? selected.event : -1;
  const shown: { index: number; flags: number }[] = [];
  for (let r = from; r < to; r++) {
    const i = order === 'asc' ? r : count - 1 - r;
    shown.push({ index: marks.event[i]!, flags: marks.flags[i]! });
  }
  // Rebuilt only when what they show changes: reading and diffing the same rows again for every
  // live report cost about as much as new ones.
  const signature = `${selectedEvent}:${origin}:${shown.map((row) => `${row.index}/${row.flags}`).join(',')}`;
  const rows = useMemo(() => {
    const out = [];
    for (const { index, flags } of shown) {
      const e = events.get(index);
      if (!e) continue;
      const tone = flags & (MARK_ERROR | MARK_DESYNC) ? ' event-error' : flags & MARK_WARNING ? ' event-warning' : '';
      const answered = e.idKey !== undefined && (e.role === 'result' || e.role === 'error') ? methodOf(e.idKey) : undefined;
      const what = e.method ? visibleLine(clip(e.method, 60)) : answered ? `${e.role} · ${answered}` : e.role;
      const previous = index > 0 ? events.timeAt(index - 1) : undefined;
      const id = e.id === undefined ? '' : visibleLine(clip(e.id, 500));
      out.push(
        <li key={index} data-testid="event-row" data-id={e.id ?? ''} data-event={index} data-error={tone === ' event-error' ? 'true' : undefined} data-truncated={e.truncated ? 'true' : undefined}>
          <button type="button" class={`event-row${tone}`} aria-pressed={selectedEvent === index} onClick={() => lens.selection.selectMark({ stream, event: index })}>
            <span class="col-id" title={id}>{e.id === undefined ? '-' : middleId(e.id, 21)}</span>
            <span class="col-event">{e.event === undefined ? '' : visibleLine(clip(e.event, 30))}</span>
            <span class="col-what">{what}</span>
            <span class="col-seq" title={e.seq?.key}>{e.seq ? e.seq.value : ''}</span>
            <span class="col-time">+{ms(e.time - origin)}</span>
            <span class="col-delta">{previous === undefined ? '' : `+${ms(e.time - previous)}`}</span>
            <span class="col-data">
              {e.truncated ? <span class="event-truncated">truncated </span> : null}
              {visibleLine(clip(e.data, ROW_DATA_CHARS))}
            </span>
          </button>
        </li>,
      );
    }
    return out;
    // `shown` and `origin` are in the signature; the rows read nothing else that changes.
  }, [signature, events, stream, lens, methodOf]);
  return (
    <ol class="events" aria-label={`Events of stream #${stream}`} style={{ paddingTop: `${from * ROW_PX}px`, paddingBottom: `${(count - to) * ROW_PX}px` }}>
      {rows}
    </ol>
  );
}
