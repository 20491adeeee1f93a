import { useLens } from '../app/lens-context';
import { ZOOM_STEP } from './timeline-store';

/** Zoom and fit buttons, the keyboard help, and the colour legend. */
export function TimelineControls() {
  const lens = useLens();
  const data = lens.timelineData.value;
  return (
    <div class="timeline-controls">
      <button type="button" aria-label="Zoom out" onClick={() => lens.timeline.zoom(ZOOM_STEP)}>−</button>
      <button type="button" aria-label="Zoom in" onClick={() => lens.timeline.zoom(1 / ZOOM_STEP)}>+</button>
      <button type="button" data-testid="fit" onClick={() => lens.timeline.fit(data)}>Fit session</button>
      <span class="muted help">Wheel zooms, drag pans, ←/→ step events, F fits.</span>
      <span class="legend">
        <span class="legend-ok">genuine resume</span> <span class="legend-bad">sequences disagree / error</span> <span class="legend-warn">unverifiable</span>
      </span>
    </div>
  );
}
