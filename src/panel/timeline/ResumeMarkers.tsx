import { useMemo } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { shortId } from '../text/visible';
import { BAND_ROW_PX, type Layout } from './layout';
import type { ResumeMark, TimelineData } from './marks';
import { placeResumeLabels, resumeText } from './resume-labels';
import type { View } from './view';

/** The labels' type: lens.css `.resume-marker` sets the same. */
const BOLD = 'bold 11px system-ui, sans-serif';

/** Label widths kept at most; past it the cache starts again (it only saves measuring). */
const MAX_WIDTHS = 500;

/**
 * Text widths from a canvas of our own: no layout read, and each label measured once (a live
 * session renders the same labels every frame). Without canvas support, an estimate.
 */
function useMeasure(): (text: string) => number {
  return useMemo(() => {
    const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d') ?? null;
    if (ctx) ctx.font = BOLD;
    const known = new Map<string, number>();
    return (text: string) => {
      let w = known.get(text);
      if (w === undefined) {
        if (known.size >= MAX_WIDTHS) known.clear();
        known.set(text, (w = ctx ? ctx.measureText(text).width : text.length * 7));
      }
      return w;
    };
  }, []);
}

/**
 * The label of every resume boundary in view, in the band above the axis, over the canvas line it
 * names: status, verdict and the boundary's arithmetic (`5 → expected 6 · got 11`). Real
 * elements, so they can be focused, read and clicked; placed so that none overlaps another.
 */
export function ResumeMarkers({ data, view, layout }: { data: TimelineData; view: View; layout: Layout }) {
  const lens = useLens();
  const measure = useMeasure();
  const selected = lens.selection.stream.value;
  const pxPerUnit = layout.plotWidth / view.span;
  const shown = data.resumes
    .map((r) => ({ r, x: layout.plotLeft + (r.time - view.start) * pxPerUnit }))
    .filter(({ x }) => x >= layout.plotLeft - 1 && x <= layout.width + 1);
  const texts = shown.map(({ r }) => resumeText(r, shortId(r.lastEventId, 200)));
  const places = placeResumeLabels(texts, shown.map((s) => s.x), measure, layout.width, Math.max(1, layout.bandHeight / BAND_ROW_PX));
  const select = (r: ResumeMark) => {
    const first = data.bridges.find((b) => b.resume === r.stream)?.to.event ?? 0;
    if (lens.source.value.events(r.stream).length > first) lens.selection.selectMark({ stream: r.stream, event: first });
    else lens.selection.selectStream(r.stream);
  };
  return (
    <ol class="resume-markers" aria-label="Resume boundaries">
      {shown.map(({ r, x }, i) => {
        const place = places[i]!;
        return (
          <li key={r.stream} class="resume-slot" style={{ left: `${place.left}px`, top: `${place.top}px`, width: `${place.width}px` }}>
            <button
              type="button"
              class={`resume-marker tone-${r.tone}${r.bad ? ' resume-bad' : ''}${place.text === null ? ' resume-pin' : ''}${selected === r.stream ? ' selected' : ''}`}
              data-testid="resume-marker"
              data-verdict={r.verdict}
              data-bad={r.bad ? 'true' : 'false'}
              data-tone={r.tone}
              data-stream={r.stream}
              data-x={Math.round(x)}
              data-last-seen={r.lastSeen}
              data-expected={r.expected}
              data-got={r.got}
              title={texts[i]!.title}
              aria-label={place.text === texts[i]!.full ? undefined : texts[i]!.title}
              onClick={() => select(r)}
            >
              {place.text}
            </button>
          </li>
        );
      })}
    </ol>
  );
}
