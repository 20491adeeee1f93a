import { useEffect, useState } from 'preact/hooks';
import { afterNextPaint } from '../after-paint';

/**
 * How many of `stages` parts of a view to render: 1 when the view first shows, one more after
 * each frame the browser paints, up to all of them. The workbench's first render builds every
 * view at once (their first run of code, their first styles and layout); in stages, each part
 * is a task and a frame of its own, and the first part (the timeline) is on screen first.
 */
export function useStaged(stages: number): number {
  const [shown, setShown] = useState(1);
  useEffect(() => {
    if (shown >= stages) return;
    return afterNextPaint(() => setShown((n) => Math.min(stages, n + 1)));
  }, [shown, stages]);
  return shown;
}
