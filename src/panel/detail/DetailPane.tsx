import { effect } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { EventDetail } from './EventDetail';

/**
 * The detail's pane: a column of its own where the panel is wide, over the streams' table where
 * it is not (lens.css). A new selection shows it from its top, and brings it into view.
 */
export function DetailPane() {
  const lens = useLens();
  const pane = useRef<HTMLElement>(null);
  useEffect(
    () =>
      effect(() => {
        void lens.selection.mark.value;
        void lens.selection.stream.value;
        const el = pane.current;
        if (!el) return;
        el.scrollTop = 0;
        el.scrollIntoView?.({ block: 'nearest' });
      }),
    [],
  );
  return (
    <aside class="detail-pane" ref={pane} aria-label="Detail">
      <button type="button" class="detail-close" data-testid="detail-close" aria-label="Close the detail" onClick={() => lens.selection.clear()}>
        ×
      </button>
      <EventDetail />
    </aside>
  );
}
