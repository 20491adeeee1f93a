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

/**
 * `levels[k - 1]` holds the complete blocks of 2^k marks (a block still filling up is never
 * read: a frame only folds whole blocks). About one extra mark's worth of memory in all.
 */
export type Pyramid = readonly PyramidLevel[];

// NaN means "no app-sequence value here"; it must not win a min or a max.
const nanMin = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a < b ? a : b);
const nanMax = (a: number, b: number): number => (a !== a ? b : b !== b ? a : a > b ? a : b);

/**
 * A pyramid that grows with its stream: `extend` computes only the blocks completed since the
 * last call, so a live stream of 10^5 marks costs O(new marks) per refresh, not O(all).
 */
export function createPyramidBuilder() {
  const levels: PyramidLevel[] = [];
  let built = 0; // marks already folded in
  const ensure = (k: number, blocks: number) => {
    const old = levels[k];
    if (old && old.min.length >= blocks) return old;
    const size = Math.max(blocks, (old?.min.length ?? 8) * 2);
    const level: PyramidLevel = { min: new Float64Array(size), max: new Float64Array(size), flags: new Uint8Array(size) };
    if (old) (level.min.set(old.min), level.max.set(old.max), level.flags.set(old.flags));
    return (levels[k] = level);
  };
  return {
    extend(seq: Float64Array, flags: Uint8Array, count: number): Pyramid {
      let belowMin = seq;
      let belowMax = seq;
      let belowOr = flags;
      for (let k = 0; count >> (k + 1) > 0; k++) {
        const blocks = count >> (k + 1);
        const level = ensure(k, blocks);
        for (let j = built >> (k + 1); j < blocks; j++) {
          const a = 2 * j;
          level.min[j] = nanMin(belowMin[a]!, belowMin[a + 1]!);
          level.max[j] = nanMax(belowMax[a]!, belowMax[a + 1]!);
          level.flags[j] = belowOr[a]! | belowOr[a + 1]!;
        }
        ({ min: belowMin, max: belowMax, flags: belowOr } = level);
      }
      built = count;
      return levels.filter((_, k) => count >> (k + 1) > 0).map((l, k) => ({
        min: l.min.subarray(0, count >> (k + 1)), max: l.max.subarray(0, count >> (k + 1)), flags: l.flags.subarray(0, count >> (k + 1)),
      }));
    },
  };
}

export function buildPyramid(seq: Float64Array, flags: Uint8Array, count: number): Pyramid {
  return createPyramidBuilder().extend(seq, flags, count);
}

/**
 * The smallest and largest app-sequence value of marks [0, count), NaN when there is none: the
 * marks are covered by the largest aligned blocks the pyramid has, so this costs O(log count).
 */
export function seqRange(seq: Float64Array, pyramid: Pyramid, count: number): { min: number; max: number } {
  let min = NaN;
  let max = NaN;
  for (let i = 0; i < count; ) {
    // The largest complete block that starts at i: 2^k marks, summarised at pyramid[k - 1].
    let k = 0;
    while (k < pyramid.length && (i & ((2 << k) - 1)) === 0 && i + (2 << k) <= count) k++;
    if (k === 0) {
      min = nanMin(min, seq[i]!);
      max = nanMax(max, seq[i]!);
      i++;
    } else {
      const j = i >> k;
      min = nanMin(min, pyramid[k - 1]!.min[j]!);
      max = nanMax(max, pyramid[k - 1]!.max[j]!);
      i += 1 << k;
    }
  }
  return { min, max };
}

/** Adds flag bits to mark `index` in every block above it (a desync mark set after the build). */
export function orIntoPyramid(pyramid: Pyramid, index: number, bits: number): void {
  pyramid.forEach((level, k) => {
    const j = index >> (k + 1);
    if (j < level.flags.length) level.flags[j] = level.flags[j]! | bits;
  });
}

/** Per-column aggregates of one stream for one frame; reused from frame to frame. */
export interface Columns {
  min: Float64Array;
  max: Float64Array;
  flags: Uint8Array;
  has: Uint8Array;
  /** The range of columns touched by the last accumulation (c0 > c1 when none). */
  c0: number;
  c1: number;
}

/**
 * Folds marks [lo, hi) into pixel columns. It reads the pyramid level whose blocks hold about one
 * column's worth of marks on average, and descends only into blocks that span more than a pixel
 * (sparser stretches), so the work is O(columns) for evenly spread marks and never O(hi - lo).
 */
export function accumulateColumns(
  time: Float64Array,
  seq: Float64Array,
  flags: Uint8Array,
  pyramid: Pyramid,
  lo: number,
  hi: number,
  viewStart: number,
  pxPerMs: number,
  width: number,
  out: Columns,
): void {
  out.c0 = width;
  out.c1 = -1;
  const add = (first: number, lowest: number, highest: number, or: number): void => {
    let c = Math.floor((time[first]! - viewStart) * pxPerMs);
    c = c < 0 ? 0 : c >= width ? width - 1 : c;
    if (c < out.c0) out.c0 = c;
    if (c > out.c1) out.c1 = c;
    if (out.has[c] === 0) {
      out.has[c] = 1;
      out.flags[c] = or;
      out.min[c] = lowest;
      out.max[c] = highest;
      return;
    }
    out.flags[c] = out.flags[c]! | or;
    const m = out.min[c]!;
    if (lowest < m || m !== m) out.min[c] = lowest;
    const x = out.max[c]!;
    if (highest > x || x !== x) out.max[c] = highest;
  };
  const walk = (from: number, to: number, level: number): void => {
    const size = 1 << level;
    let i = from;
    while (i < to) {
      if (level > 0 && (i & (size - 1)) === 0 && i + size <= to) {
        if ((time[i + size - 1]! - time[i]!) * pxPerMs < 1) {
          const l = pyramid[level - 1]!;
          const j = i >>> level;
          add(i, l.min[j]!, l.max[j]!, l.flags[j]!);
        } else {
          walk(i, i + size, level - 1);
        }
        i += size;
      } else {
        add(i, seq[i]!, seq[i]!, flags[i]!);
        i++;
      }
    }
  };
  const density = (hi - lo) / Math.max(1, width);
  const level = Math.min(pyramid.length, Math.max(0, Math.floor(Math.log2(density))));
  walk(lo, hi, level);
}
