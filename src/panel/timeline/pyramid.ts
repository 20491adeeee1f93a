/**
 * Level-of-detail aggregates for one stream's marks. Level k (k >= 1) summarises aligned blocks
 * of 2^k marks: the smallest and largest app-sequence value and the OR of the marks' flags. When
 * marks are denser than pixels a frame draws one block per pixel column instead of every mark,
 * so its cost follows the canvas width, not the event count.
 */
export interface PyramidLevel {
  min: Float64Array;
  max: Float64Array;
  flags: Uint8Array;
}

/** `levels[k - 1]` holds blocks of 2^k marks. About one extra mark's worth of memory in all. */
export type Pyramid = readonly PyramidLevel[];

// NaN means "no app-sequence value here"; it must not win a min or a max.
const nanMin = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a < b ? a : b);
const nanMax = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a > b ? a : b);

export function buildPyramid(seq: Float64Array, flags: Uint8Array, count: number): Pyramid {
  const levels: PyramidLevel[] = [];
  let min = seq.subarray(0, count);
  let max = min;
  let or = flags.subarray(0, count);
  while (min.length > 1) {
    const n = Math.ceil(min.length / 2);
    const level: PyramidLevel = { min: new Float64Array(n), max: new Float64Array(n), flags: new Uint8Array(n) };
    for (let i = 0; i < n; i++) {
      const a = 2 * i;
      const b = a + 1 < min.length ? a + 1 : a;
      level.min[i] = nanMin(min[a]!, min[b]!);
      level.max[i] = nanMax(max[a]!, max[b]!);
      level.flags[i] = or[a]! | or[b]!;
    }
    levels.push(level);
    ({ min, max, flags: or } = level);
  }
  return levels;
}

/** What one visited block holds: marks first..last (inclusive) and their aggregates. */
export type BlockVisitor = (first: number, last: number, min: number, max: number, flags: number) => void;

/**
 * Walks marks [lo, hi) as the fewest aligned blocks whose marks fall within one pixel
 * (`toX(time[last]) - toX(time[first]) < 1`). Sparse stretches come out mark by mark, dense ones
 * as single blocks, so the walk costs O(columns · log n) at worst, never O(hi - lo).
 */
export function forEachBlock(
  time: Float64Array,
  seq: Float64Array,
  flags: Uint8Array,
  pyramid: Pyramid,
  lo: number,
  hi: number,
  pxPerMs: number,
  visit: BlockVisitor,
): void {
  let i = lo;
  while (i < hi) {
    let k = 0;
    while (k < pyramid.length) {
      const size = 2 << k;
      if ((i & (size - 1)) !== 0 || i + size > hi) break;
      if ((time[i + size - 1]! - time[i]!) * pxPerMs >= 1) break;
      k++;
    }
    if (k === 0) {
      visit(i, i, seq[i]!, seq[i]!, flags[i]!);
      i++;
    } else {
      const level = pyramid[k - 1]!;
      const j = i >>> k;
      const size = 1 << k;
      visit(i, i + size - 1, level.min[j]!, level.max[j]!, level.flags[j]!);
      i += size;
    }
  }
}
