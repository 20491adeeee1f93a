import { useState } from 'preact/hooks';
import type { EventTable } from '../../core/index';
import { useLens } from '../app/lens-context';
import { MARK_ERROR, type StreamMarks } from '../timeline/marks';
import { clip, shortId, visibleLine } from '../text/visible';
import { LIST_PX, ROW_PX, rowWindow } from './row-window';

/** Rows per stream (the latest ones); the timeline shows every event. */
export const MAX_EVENT_ROWS = 200;
/** Characters of data shown in a row; the detail shows all of it. */
const ROW_DATA_CHARS = 240;

/**
 * A stream's events as rows (id, type, method, value, data), filtered like the timeline. Data is
 * rendered as text, never as HTML: the page wrote it. Only the rows scrolled into view are
 * elements (see rowWindow); scrolling brings in the others.
 */
export function EventRows({ stream, events, marks }: { stream: number; events: EventTable; marks: StreamMarks | undefined }) {
  const lens = useLens();
  const selected = lens.selection.mark.value;
  const [scrollTop, setScrollTop] = useState(0);
  if (!marks || marks.count === 0) return null;
  const first = Math.max(0, marks.count - MAX_EVENT_ROWS);
  // Row 0 is the note about earlier events when there is one; the events follow it.
  const note = first > 0 ? 1 : 0;
  const total = note + marks.count - first;
  const { from, to } = rowWindow(scrollTop, total);
  const rows: number[] = [];
  for (let r = Math.max(from, note); r < to; r++) rows.push(first + r - note);
  return (
    <ol
      class="events"
      style={{ maxHeight: `${LIST_PX}px`, paddingTop: `${from * ROW_PX}px`, paddingBottom: `${(total - to) * ROW_PX}px` }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      {note && from === 0 ? <li class="muted">{first} earlier events: see the timeline</li> : null}
      {rows.map((i) => {
        const index = marks.event[i]!;
        const e = events.get(index)!;
        const isSelected = selected?.stream === stream && selected.event === index;
        return (
          <li key={index} data-testid="event-row" data-id={e.id ?? ''} data-truncated={e.truncated ? 'true' : undefined} aria-posinset={i - first + 1} aria-setsize={marks.count - first}>
            <button
              type="button"
              class={`event-row${marks.flags[i]! & MARK_ERROR ? ' event-error' : ''}`}
              aria-pressed={isSelected}
              onClick={() => lens.selection.selectMark({ stream, event: index })}
            >
              <span class="event-index">{index}</span>
              <span class="event-id">{e.id === undefined ? '-' : shortId(e.id, 18)}</span>
              <span class="event-role">{e.role}</span>
              {e.method ? <span class="event-method">{visibleLine(clip(e.method, 60))}</span> : null}
              {e.seq ? <span class="event-seq">{e.seq.key}={e.seq.value}</span> : null}
              {e.truncated ? <span class="event-truncated">truncated</span> : null}
              <span class="event-data">{visibleLine(clip(e.data, ROW_DATA_CHARS))}</span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
