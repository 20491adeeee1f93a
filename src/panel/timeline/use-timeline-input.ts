import type { ReadonlySignal } from '@preact/signals';
import { useRef } from 'preact/hooks';
import type { Lens } from '../app/create-lens';
import { hitTest } from './hit-test';
import { layoutOf } from './layout';
import type { Hover } from './MarkTooltip';
import { stepMark } from './navigation';
import { ZOOM_STEP } from './timeline-store';
import { panView, type View } from './view';

/** A press that moves less than this (px) is a click, not a drag. */
const DRAG_PX = 3;
/** Wheel delta that zooms by e (a notch of ~100 zooms by about 1.16). */
const WHEEL_SCALE = 0.0015;
/** Shift+arrow pans by this fraction of the width. */
const PAN_STEP = 0.1;

type Size = { width: number; height: number; bandRows: number };

/** Mouse, wheel and keyboard handling of the timeline canvas; `hover` is told the mark under the pointer. */
export function useTimelineInput(lens: Lens, size: ReadonlySignal<Size>, hover: (next: Hover | null) => void) {
  const drag = useRef<{ x: number; view: View; moved: boolean } | null>(null);
  const hovered = useRef<string>('');
  const local = (e: MouseEvent) => {
    const rect = (e.currentTarget as HTMLElement).getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };
  const markAt = (e: MouseEvent) => {
    const data = lens.timelineData.peek();
    const view = lens.timeline.view.peek();
    if (!data || !view) return null;
    const { x, y } = local(e);
    const { width, height, bandRows } = size.peek();
    return hitTest(data, view, width, height, x, y, bandRows);
  };
  const plotWidth = () => layoutOf(size.peek().width, 0, 1).plotWidth;
  return {
    onPointerLeave() {
      hovered.current = '';
      hover(null);
    },
    onPointerDown(e: PointerEvent) {
      const view = lens.timeline.view.peek();
      if (!view || e.button !== 0) return;
      (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
      drag.current = { x: e.clientX, view, moved: false };
    },
    onPointerMove(e: PointerEvent) {
      const d = drag.current;
      if (!d) {
        const mark = markAt(e);
        const key = mark ? `${mark.stream}:${mark.event}` : '';
        if (key !== hovered.current) hover(mark ? { ...local(e), mark } : null);
        hovered.current = key;
        return;
      }
      const dx = e.clientX - d.x;
      if (!d.moved && Math.abs(dx) < DRAG_PX) return;
      d.moved = true;
      lens.timeline.set(panView(d.view, -dx / plotWidth()));
    },
    onPointerUp(e: PointerEvent) {
      const d = drag.current;
      drag.current = null;
      if (!d || d.moved) return;
      lens.selection.selectMark(markAt(e));
    },
    onWheel(e: WheelEvent) {
      const width = plotWidth();
      e.preventDefault();
      if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) lens.timeline.pan(e.deltaX / width);
      else lens.timeline.zoom(Math.exp(e.deltaY * WHEEL_SCALE), Math.min(1, Math.max(0, (local(e).x - layoutOf(size.peek().width, 0, 1).plotLeft) / width)));
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
