import { lowerBound } from './bounds';
import { layoutOf, rowY, seqY } from './layout';
import type { TimelineData } from './marks';
import type { MarkRef } from './navigation';
import type { View } from './view';

/** How near (px) a pointer must be to pick a mark. */
const HIT_PX = 7;
/** Marks examined per stream around the pointer, so a click on a dense stretch stays O(log n). */
const MAX_CANDIDATES = 64;

/** The mark nearest to (x, y) in CSS pixels of the canvas, in either lane, or null. */
export function hitTest(data: TimelineData, view: View, width: number, height: number, x: number, y: number, bandRows = 1): MarkRef | null {
  const layout = layoutOf(width, height, data.rows, bandRows);
  const pxPerMs = layout.plotWidth / view.span;
  const t = view.start + (x - layout.plotLeft) / pxPerMs;
  let best: MarkRef | null = null;
  let bestDistance = HIT_PX * HIT_PX;
  for (const s of data.streams) {
    const centre = lowerBound(s.time, t, 0, s.count);
    const y1 = rowY(layout, s.row);
    for (let i = Math.max(0, centre - MAX_CANDIDATES / 2); i < Math.min(s.count, centre + MAX_CANDIDATES / 2); i++) {
      const dx = (s.time[i]! - t) * pxPerMs;
      if (Math.abs(dx) > HIT_PX) continue;
      const dy1 = y - y1;
      const dy2 = s.seqKey[i]! >= 0 ? y - seqY(layout, data, s.seq[i]!) : Infinity;
      const d = dx * dx + Math.min(dy1 * dy1, dy2 * dy2);
      // Strictly nearer only: of marks drawn on top of each other, the first one is picked.
      if (d < bestDistance) (bestDistance = d), (best = { stream: s.stream, event: s.event[i]! });
    }
  }
  return best;
}
