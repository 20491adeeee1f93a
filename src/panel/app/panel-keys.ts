import type { Lens } from './create-lens';

/** Where typing goes: keys there are the field's, never the panel's. */
const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

/**
 * The panel's own keys, from anywhere in it: `n` / `p`, or F8 / Shift+F8 as DevTools steps
 * through matches, go to the next and previous finding; Escape closes the detail. Keys a focused
 * part handled first (the timeline's arrows, a list's Up/Down) are left alone.
 */
export function onPanelKey(lens: Lens, e: KeyboardEvent): void {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'F8') {
    e.preventDefault();
    return lens.stepFinding(e.shiftKey ? -1 : 1);
  }
  if ((e.target as Element | null)?.closest?.(TYPING)) return;
  if (e.key === 'n' || e.key === 'p') {
    e.preventDefault();
    lens.stepFinding(e.key === 'n' ? 1 : -1);
  } else if (e.key === 'Escape') lens.selection.clear();
}
