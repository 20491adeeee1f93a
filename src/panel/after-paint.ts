import { nextFrame } from './next-frame';

/**
 * Runs `work` in a task after the browser's next rendering step: the frame's work (next-frame.ts,
 * which also moves on in a hidden document, where no frame comes) runs before that step, and a
 * message posted from it is delivered after. Returns its cancel.
 */
export function afterNextPaint(work: () => void): () => void {
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
