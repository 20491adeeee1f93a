import { signal } from '@preact/signals';
import type { TimelineData } from './marks';
import { fitView, panView, revealTime, zoomView, type View } from './view';

/** Zoom step of one `+`/`-` press or button click. */
export const ZOOM_STEP = 1.5;

/**
 * The timeline's window onto the data. Until the user zooms or pans it follows the data
 * (fit-to-session as live events arrive); after that it stays where they put it.
 */
export function createTimelineStore() {
  const view = signal<View | null>(null);
  const following = signal(true);
  const manual = (next: View): void => {
    following.value = false;
    view.value = next;
  };
  return {
    view,
    following,
    /** Fit-to-session, and follow the data again. */
    fit(data: TimelineData | null): void {
      following.value = true;
      view.value = data ? fitView(data.start, data.end) : null;
    },
    /** Called when the data changed: refit only while following. */
    follow(data: TimelineData | null): void {
      // peek(): called from an effect on the data; it must not also re-run on its own writes.
      if (following.peek() || !view.peek()) view.value = data ? fitView(data.start, data.end) : null;
    },
    /** A view the user chose directly (dragging). */
    set(next: View): void {
      manual(next);
    },
    zoom(factor: number, anchor = 0.5): void {
      if (view.value) manual(zoomView(view.value, factor, anchor));
    },
    pan(fraction: number): void {
      if (view.value) manual(panView(view.value, fraction));
    },
    reveal(time: number): void {
      if (!view.value) return;
      const next = revealTime(view.value, time);
      if (next !== view.value) manual(next);
    },
  };
}

export type TimelineStore = ReturnType<typeof createTimelineStore>;
