import { useLens } from '../app/lens-context';
import { ZOOM_STEP } from './timeline-store';

/** Zoom and fit, the x axis (time or event order), and the colour key. */
export function TimelineControls() {
  const lens = useLens();
  const data = lens.timelineData.value;
  const axis = lens.axis.value;
  const auto = lens.axisChoice.value === 'auto';
  const choose = (next: 'time' | 'order') => (lens.axisChoice.value = next);
  return (
    <div class="timeline-controls" role="group" aria-label="Timeline view">
      <button type="button" aria-label="Zoom out" title="Zoom out (-)" onClick={() => lens.timeline.zoom(ZOOM_STEP)}>−</button>
      <button type="button" aria-label="Zoom in" title="Zoom in (+)" onClick={() => lens.timeline.zoom(1 / ZOOM_STEP)}>+</button>
      <button type="button" data-testid="fit" title="Fit the session (F)" onClick={() => lens.timeline.fit(data)}>Fit</button>
      <span class="segmented" role="group" aria-label="X axis" data-testid="axis-toggle" data-axis={axis} data-auto={auto ? 'true' : 'false'}>
        <button type="button" aria-pressed={axis === 'time'} onClick={() => choose('time')}>Time</button>
        <button type="button" aria-pressed={axis === 'order'} title="Each event one step: bursts that arrived in the same millisecond spread out" onClick={() => choose('order')}>
          Event order
        </button>
      </span>
      {auto && axis === 'order' ? <span class="muted axis-note">a burst stacks on one instant</span> : null}
      <span class="legend">
        <span class="legend-ok">continues</span> <span class="legend-bad">sequences disagree</span> <span class="legend-warn">warning</span>{' '}
        <span class="legend-info">refused / expired</span>
      </span>
    </div>
  );
}
