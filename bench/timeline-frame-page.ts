// Runs inside Chromium: the timeline benchmark on a real canvas. getImageData forces the
// rasterisation that canvas otherwise defers, so a frame's time includes the pixels.
import { measure } from './timeline-frame-work';

(window as unknown as { runBench: unknown }).runBench = (counts: number[], width: number, height: number, frames: number) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  document.body.append(canvas);
  const ctx = canvas.getContext('2d')!;
  return measure(ctx, counts, width, height, frames, () => void ctx.getImageData(0, 0, 1, 1));
};
