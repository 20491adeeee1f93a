import { useLens } from '../app/lens-context';
import { shortId } from '../text/visible';
import type { TimelineData } from './marks';
import type { View } from './view';

/**
 * The label of every resume boundary in view, laid over the canvas line it names: Last-Event-ID,
 * HTTP status and verdict. Real elements, so they can be focused, read and clicked.
 */
export function ResumeMarkers({ data, view, width }: { data: TimelineData; view: View; width: number }) {
  const lens = useLens();
  const pxPerMs = width / view.span;
  return (
    <ol class="resume-markers" aria-label="Resume boundaries">
      {data.resumes.map((r, i) => {
        const x = (r.time - view.start) * pxPerMs;
        if (x < -1 || x > width + 1) return null;
        const status = r.status === 0 ? 'no response' : String(r.status);
        const select = () => {
          const events = lens.source.value.events(r.stream);
          lens.selection.selectMark(events.length > 0 ? { stream: r.stream, event: 0 } : null);
        };
        return (
          // Near an edge the label hangs inwards from its line instead of being cut off.
          <li key={r.stream} class={`resume-slot${x > width * 0.75 ? ' slot-end' : x < width * 0.25 ? ' slot-start' : ''}`} style={{ left: `${Math.round(x)}px`, top: `${(i % 3) * 20}px` }}>
            <button
              type="button"
              class={`resume-marker verdict-${r.verdict}${r.bad ? ' resume-bad' : ''}`}
              data-testid="resume-marker"
              data-verdict={r.verdict}
              data-bad={r.bad ? 'true' : 'false'}
              data-stream={r.stream}
              data-x={Math.round(x)}
              title={`Stream #${r.stream} resumes ${r.of === null ? 'an unknown stream' : `stream #${r.of}`} from Last-Event-ID ${shortId(r.lastEventId, 200)}`}
              onClick={select}
            >
              Last-Event-ID {shortId(r.lastEventId, 12)} · {status} · {r.verdict}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
