/** The visible time window, ms since the timeline origin. */
export interface View {
  start: number;
  span: number;
}

/** Zooming stops at a microsecond per canvas and at a day. */
export const MIN_SPAN_MS = 0.001;
export const MAX_SPAN_MS = 86_400_000;
/** Room left at each end by fit-to-session, as a fraction of the span. */
const FIT_PADDING = 0.03;

const clampSpan = (span: number): number => Math.min(MAX_SPAN_MS, Math.max(MIN_SPAN_MS, span));

export function fitView(start: number, end: number): View {
  const span = Math.max(end - start, 1);
  return { start: start - span * FIT_PADDING, span: clampSpan(span * (1 + 2 * FIT_PADDING)) };
}

/** Zooms by `factor` (< 1 zooms in) keeping the time under `anchor` (0..1 of the width) still. */
export function zoomView(view: View, factor: number, anchor = 0.5): View {
  const span = clampSpan(view.span * factor);
  const pivot = view.start + view.span * anchor;
  return { start: pivot - span * anchor, span };
}

/** Pans by a fraction of the width (positive moves the window later). */
export function panView(view: View, fraction: number): View {
  return { start: view.start + view.span * fraction, span: view.span };
}

/** Moves the window, only if `time` is outside it, so that `time` is in the middle. */
export function revealTime(view: View, time: number): View {
  if (time >= view.start && time <= view.start + view.span) return view;
  return { start: time - view.span / 2, span: view.span };
}
