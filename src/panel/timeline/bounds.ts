/**
 * Binary searches over a sorted (non-decreasing) Float64Array. They are how a frame finds the
 * marks in view without touching the others: O(log n) per stream, whatever the capture's size.
 */

/** A sorted typed array: arrival times, or a stream's event indexes. */
export type Sorted = Float64Array | Uint32Array;

/** First index `i` in [from, to) with `values[i] >= target`, or `to` when there is none. */
export function lowerBound(values: Sorted, target: number, from = 0, to = values.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index `i` in [from, to) with `values[i] > target`, or `to` when there is none. */
export function upperBound(values: Sorted, target: number, from = 0, to = values.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
