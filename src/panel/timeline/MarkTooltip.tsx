import { useLens } from '../app/lens-context';
import { clockTime } from '../sessions/NavigationMarker';
import { clip, visibleLine } from '../text/visible';
import type { MarkRef } from './navigation';

/** Where the pointer is over the canvas (CSS px of the canvas) and the mark under it. */
export interface Hover {
  x: number;
  y: number;
  mark: MarkRef;
}

const TOOLTIP_PX = { width: 280, height: 76 };

/** What the mark under the pointer is: its id, value, time and stream. Text only: page content. */
export function MarkTooltip({ hover, width, height }: { hover: Hover; width: number; height: number }) {
  const lens = useLens();
  const session = lens.session.value;
  const source = lens.source.value;
  const record = source.events(hover.mark.stream).get(hover.mark.event);
  if (!record || !session) return null;
  const start = source.exchange(hover.mark.stream)?.startTime;
  const origin = lens.timelineData.value?.origin ?? record.time;
  // Beside the pointer, flipped to stay inside the canvas.
  const left = hover.x + 12 + TOOLTIP_PX.width > width ? Math.max(0, hover.x - 12 - TOOLTIP_PX.width) : hover.x + 12;
  const top = hover.y + 12 + TOOLTIP_PX.height > height ? Math.max(0, hover.y - 12 - TOOLTIP_PX.height) : hover.y + 12;
  return (
    <div class="timeline-tooltip" role="tooltip" data-testid="timeline-tooltip" data-stream={hover.mark.stream} data-event={hover.mark.event} style={{ left: `${left}px`, top: `${top}px` }}>
      <div class="tooltip-id">id {record.id === undefined ? '(none)' : visibleLine(clip(record.id, 80))}</div>
      <div>
        {record.seq ? `${record.seq.key} ${record.seq.value}` : 'no sequence value'} · {record.method ? visibleLine(clip(record.method, 40)) : record.role}
      </div>
      <div>
        +{(record.time - origin).toFixed(1)} ms ({clockTime(record.time)}){start === undefined ? '' : `, ${(record.time - start).toFixed(1)} ms into the stream`}
      </div>
      <div>
        #{hover.mark.stream} {lens.requests.value.label(session, hover.mark.stream)}, event {hover.mark.event}
      </div>
    </div>
  );
}
