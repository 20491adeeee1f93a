/**
 * The panel's per-frame work in one queue: the live report's rebuild and the timeline's paint.
 *
 * Work queued while a frame's work runs is done in that same frame, so an event that arrives is in
 * the report and on the canvas by the end of the next frame. With a timer for the rebuild and
 * `requestAnimationFrame` for the paint, it waited for the timer, then for a frame: a frame
 * callback that asks for another frame gets the one after.
 */

/** A hidden document gets no animation frames; a timer then keeps the counters moving. */
export const HIDDEN_FRAME_MS = 100;
/** The frame time where there is no `requestAnimationFrame` at all (unit tests run in Node). */
export const FRAME_MS = 16;
/**
 * Rounds of queued work one frame runs. Work queued by the last round waits for the next frame,
 * so work that keeps queuing itself cannot hold a frame forever.
 */
const MAX_ROUNDS = 4;

const queue = new Set<() => void>();
let frame: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let running = false;

/** Runs `work` once in the next frame (or in this one, while a frame runs); returns its cancel. */
export function nextFrame(work: () => void): () => void {
  queue.add(work);
  if (!running && timer === undefined) request();
  return () => void queue.delete(work);
}

function request(): void {
  const animate = typeof requestAnimationFrame === 'function';
  if (animate) frame = requestAnimationFrame(run);
  timer = setTimeout(run, animate ? HIDDEN_FRAME_MS : FRAME_MS);
}

function run(): void {
  if (frame !== undefined) cancelAnimationFrame(frame);
  clearTimeout(timer);
  frame = timer = undefined;
  running = true;
  for (let round = 0; round < MAX_ROUNDS && queue.size > 0; round++) {
    const works = [...queue];
    queue.clear();
    for (const work of works) {
      try {
        work();
      } catch (error) {
        // The rest of the frame still runs; the error surfaces as an uncaught one would.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }
  running = false;
  if (queue.size > 0) request();
}
