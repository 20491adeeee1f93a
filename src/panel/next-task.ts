/**
 * Runs `work` in a task of its own, after the tasks already queued (a message is not clamped
 * as a timer is): for work that would make a long task longer if it ran in this one.
 */
export function nextTask(work: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    work();
  };
  channel.port2.postMessage(null);
}
