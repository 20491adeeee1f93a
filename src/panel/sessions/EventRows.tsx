import { useMemo, useState } from 'preact/hooks';
import type { EventTable } from '../../core/index';
import { useLens } from '../app/lens-context';
import { MARK_ERROR, type StreamMarks } from '../timeline/marks';
import { clip, shortId, visibleLine } from '../text/visible';
import { LIST_PX, ROW_PX, rowWindow } from './row-window';
import { useThrottled } from './use-throttled';

/** Rows per stream (the latest ones); the timeline shows every event. */
export const MAX_EVENT_ROWS = 200;
/** Characters of data shown in a row; the detail shows all of it. */
const ROW_DATA_CHARS = 240;
/**
 * How often a live stream's rows follow its new events. The timeline paints every report; the
 * rows are text to read, and rebuilding them for every report was most of the panel's work at
 * 1,000 events/s. bench/live-latency.ts on 2 cores: p95 105-129 ms before this and the memo
 * below, 90-93 ms after, 54-86 ms with no rows at all.
 */
export const ROWS_REFRESH_MS = 250;

/**
 * A stream's events as rows (id, type, method, value, data), filtered like the timeline. Data is
 * rendered as text, never as HTML: the page wrote it. Only the rows scrolled into view are
 * elements (see rowWindow); scrolling brings in the others.
 */
export function EventRows({ stream, events, marks }: { stream: number; events: EventTable; marks: StreamMarks | undefined }) {
  const lens = useLens();
  const selected = lens.selection.mark.value;
  const [scrollTop, setScrollTop] = useState(0);
  const count = useThrottled(marks?.count ?? 0, ROWS_REFRESH_MS);
  const first = Math.max(0, count - MAX_EVENT_ROWS);
  // Row 0 is the note about earlier events when there is one; the events follow it.
  const note = first > 0 ? 1 : 0;
  const total = note + count - first;
  const { from, to } = rowWindow(scrollTop, total);
  const shown: { i: number; index: number; error: boolean }[] = [];
  for (let r = Math.max(from, note); marks && r < to; r++) {
    const i = first + r - note;
    shown.push({ i, index: marks.event[i]!, error: (marks.flags[i]! & MARK_ERROR) !== 0 });
  }
  const selectedEvent = selected?.stream === stream ? selected.event : -1;
  // Rebuilt only when what they show changes (at most every ROWS_REFRESH_MS while the stream is
  // live): reading and diffing the same rows again for every report cost about as much as new ones.
  const signature = `${count}:${selectedEvent}:${shown.map((row) => `${row.index}${row.error ? '!' : ''}`).join(',')}`;
  const rows = useMemo(
    () =>
      shown.map(({ i, index, error }) => {
        const e = events.get(index)!;
        return (
          <li key={index} data-testid="event-row" data-id={e.id ?? ''} data-truncated={e.truncated ? 'true' : undefined} aria-posinset={i - first + 1} aria-setsize={count - first}>
            <button
              type="button"
              class={`event-row${error ? ' event-error' : ''}`}
              aria-pressed={selectedEvent === index}
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
      }),
    // `shown`, `first` and `count` are all in the signature.
    [signature, events, stream, lens],
  );
  if (!marks || count === 0) return null;
  return (
    <ol
      class="events"
      style={{ maxHeight: `${LIST_PX}px`, paddingTop: `${from * ROW_PX}px`, paddingBottom: `${(total - to) * ROW_PX}px` }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      {note && from === 0 ? <li class="muted">{first} earlier events: see the timeline</li> : null}
      {rows}
    </ol>
  );
}
