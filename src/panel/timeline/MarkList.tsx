import { useState } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import type { TimelineData } from './marks';
import type { View } from './view';
import { visibleMarks, type ListedMark } from './visible-marks';

/** Marks listed at most; zooming in lists the rest. */
export const MAX_LISTED_MARKS = 200;

/** Where a mark stands on the x axis, in words. */
const placeOf = (x: number, axis: TimelineData['axis']): string => (axis === 'order' ? `event #${Math.round(x)} of the session` : `+${x.toFixed(1)} ms`);

export const describeMark = (m: ListedMark, idOf: (stream: number, event: number) => string | undefined, axis: TimelineData['axis'] = 'time'): string =>
  [
    placeOf(m.time, axis),
    `stream #${m.stream} event ${m.event}`,
    m.hasId ? `id ${idOf(m.stream, m.event)}` : 'no id',
    m.seq === m.seq ? `sequence ${m.seq}` : 'no sequence',
    m.error ? 'error' : m.warning ? 'warning' : '',
  ].filter(Boolean).join(', ');

/**
 * The canvas's marks as a list, for screen readers and keyboards: what is in view, resume
 * boundaries included. Built only while open, so a closed list costs nothing per frame.
 */
export function MarkList({ data, view }: { data: TimelineData; view: View }) {
  const lens = useLens();
  const [open, setOpen] = useState(false);
  const listed = open ? visibleMarks(data, view, MAX_LISTED_MARKS) : null;
  return (
    <details class="mark-list" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Marks in view as a list</summary>
      {listed ? (
        <>
          <ul data-testid="mark-list">
            {data.resumes.map((r) => (
              <li key={`r${r.stream}`}>
                Resume boundary at {placeOf(r.time, data.axis)}: stream #{r.stream}, status {r.status || 'none'}, verdict {r.verdict}
                {r.bad ? ' (the sequences stop advancing together here)' : ''}
              </li>
            ))}
            {listed.marks.map((m) => (
              <li key={`${m.stream}:${m.event}`}>
                <button type="button" data-testid="timeline-mark" class={m.error ? 'mark-error' : ''} onClick={() => lens.selection.selectMark({ stream: m.stream, event: m.event })}>
                  {describeMark(m, lens.idOf, data.axis)}
                </button>
              </li>
            ))}
          </ul>
          {listed.total > listed.marks.length ? <p class="muted">{listed.total - listed.marks.length} more marks in view: zoom in to list them.</p> : null}
        </>
      ) : null}
    </details>
  );
}
