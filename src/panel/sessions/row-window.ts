/** Height of one event row in CSS pixels. Fixed (lens.css holds rows to it), so which rows are in view is arithmetic, not a layout read. */
export const ROW_PX = 20;
/** The list's height at most; past it the list scrolls. */
export const LIST_PX = 220;
/** Rows rendered beyond each edge of the view, so a short scroll shows rows before the next render. */
export const OVERSCAN_ROWS = 4;

/**
 * Which of `total` rows to render when the list is scrolled to `scrollTop`: those in view and a
 * few either side (`from` inclusive, `to` exclusive). The rest are padding of the same height, so
 * the scrollbar and every row's position are as if all were there. Live, the list changes every
 * refresh: rendering the ~20 rows in view instead of all 200 is what keeps a refresh cheap.
 */
export function rowWindow(scrollTop: number, total: number): { from: number; to: number } {
  const from = Math.min(total, Math.max(0, Math.floor(scrollTop / ROW_PX) - OVERSCAN_ROWS));
  const to = Math.min(total, Math.ceil((scrollTop + LIST_PX) / ROW_PX) + OVERSCAN_ROWS);
  return { from, to: Math.max(from, to) };
}
