import { createScratch } from './draw-stream';
import { drawTimeline, type Frame, type Painted } from './render';
import { createTextWidths } from './text-boxes';

const NOTHING: Painted = { drawn: 0, text: [] };

/**
 * Paints frames on one canvas at the device pixel ratio. Resizing the backing store clears it and
 * costs an allocation, so it only happens when the size really changed.
 */
export function createPainter(canvas: HTMLCanvasElement) {
  const scratch = createScratch();
  const widths = createTextWidths();
  let ctx: CanvasRenderingContext2D | null | undefined;
  return (frame: Frame): Painted => {
    if (ctx === undefined) ctx = canvas.getContext('2d');
    if (!ctx) return NOTHING; // no canvas support (a DOM-only test environment): the DOM lists still work
    const ratio = globalThis.devicePixelRatio || 1;
    const width = Math.round(frame.width * ratio);
    const height = Math.round(frame.height * ratio);
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return drawTimeline(ctx, frame, scratch, widths);
  };
}
