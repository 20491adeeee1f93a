import type { ReadonlySignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { Lens } from '../app/create-lens';
import { hitTest } from './hit-test';
import { stepMark } from './navigation';
import { ZOOM_STEP } from './timeline-store';
import { panView, type View } from './view';

/** A press that moves less than this (px) is a click, not a drag. */
const DRAG_PX = 3;
/** Wheel delta that zooms by e (a notch of ~100 zooms by about 1.16). */
const WHEEL_SCALE = 0.0015;
/** Shift+arrow pans by this fraction of the width. */
const PAN_STEP = 0.1;

/** Mouse, wheel and keyboard handling of the timeline canvas. */
export function useTimelineInput(lens: Lens, size: ReadonlySignal<{ width: number; height: number }>) {
  const drag = useRef<{ x: number; view: View; moved: boolean } | null>(null);
  const local = (e: MouseEvent) => {
    const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  return {
    onPointerDown(e: PointerEvent) {
      const view = lens.timeline.view.peek();
      if (!view || e.button !== 0) return;
      (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      drag.current = { x: e.clientX, view, moved: false };
    },
    onPointerMove(e: PointerEvent) {
      const d = drag.current;
      if (!d) return;
      const dx = e.clientX - d.x;
      if (!d.moved && Math.abs(dx) < DRAG_PX) return;
      d.moved = true;
      lens.timeline.set(panView(d.view, -dx / Math.max(1, size.peek().width)));
    },
    onPointerUp(e: PointerEvent) {
      const d = drag.current;
      drag.current = null;
      const data = lens.timelineData.peek();
      const view = lens.timeline.view.peek();
      if (!d || d.moved || !data || !view) return;
      const { x, y } = local(e);
      const { width, height } = size.peek();
      lens.selection.selectMark(hitTest(data, view, width, height, x, y));
    },
    onWheel(e: WheelEvent) {
      const width = Math.max(1, size.peek().width);
      e.preventDefault();
      if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) lens.timeline.pan(e.deltaX / width);
      else lens.timeline.zoom(Math.exp(e.deltaY * WHEEL_SCALE), local(e).x / width);
    },
    onKeyDown(e: KeyboardEvent) {
      const data = lens.timelineData.peek();
      if (!data || e.ctrlKey || e.metaKey || e.altKey) return;
      const mark = lens.selection.mark.peek();
      switch (e.key) {
        case 'ArrowRight':
        case 'ArrowLeft': {
          const step = e.key === 'ArrowRight' ? 1 : -1;
          if (e.shiftKey) lens.timeline.pan(step * PAN_STEP);
          else {
            const next = stepMark(data, mark, step);
            if (next) lens.selection.selectMark(next);
          }
          break;
        }
        case 'Home':
        case 'End':
          lens.selection.selectMark(stepMark(data, null, e.key === 'Home' ? 1 : -1));
          break;
        case '+':
        case '=':
          lens.timeline.zoom(1 / ZOOM_STEP);
          break;
        case '-':
        case '_':
          lens.timeline.zoom(ZOOM_STEP);
          break;
        case '0':
        case 'f':
        case 'F':
          lens.timeline.fit(data);
          break;
        case 'Escape':
          lens.selection.selectMark(null);
          break;
        default:
          return;
      }
      e.preventDefault();
    },
  };
}
