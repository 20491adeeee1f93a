import { useEffect, useState } from 'preact/hooks';
import { nextFrame } from '../next-frame';

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

/**
 * Runs `work` in a task after the browser's next rendering step: the frame's work (next-frame.ts,
 * which also moves on in a hidden document, where no frame comes) runs before that step, and a
 * message posted from it is delivered after. Returns its cancel.
 */
function afterNextPaint(work: () => void): () => void {
  let live = true;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    if (live) work();
  };
  const cancelFrame = nextFrame(() => channel.port2.postMessage(null));
  return () => {
    live = false;
    cancelFrame();
    channel.port1.close();
  };
}
