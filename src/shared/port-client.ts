import { isBackgroundWelcome, type Message } from '../shared/messages';

/** The slice of `runtime.Port` the capture needs; tests pass a fake. */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(fn: (message: unknown) => void): void };
  onDisconnect: { addListener(fn: () => void): void };
}

/** Consecutive connections that died before their welcome; then the client gives up. */
export const MAX_FAILED_HANDSHAKES = 5;
/**
 * Batches a relay keeps after sending them, to send again after a reconnect: a worker that is
 * stopped drops what it had received but not yet passed on, and what was posted to its port
 * before the disconnect reached the relay. At 10,000 events/s a batch holds a few ms of events,
 * so this covers far more than that window.
 */
export const MAX_RELAY_REPLAY = 256;
/**
 * Body text those batches may hold in all. Counted in batches alone, the window kept whatever
 * the batches held: up to 256 x 8 MB in a page's renderer on a fast stream. A batch that falls
 * out of the window is no loss unless the worker dies with it unread, and then the panel sees the
 * gap in item numbers and counts it.
 */
export const MAX_RELAY_REPLAY_CHARS = 8 * 1024 * 1024;

export interface PortClientOptions {
  connect: () => PortLike;
  /** The first message on every (re)connected port. */
  hello: () => Message;
  /** Messages held while not connected or before the welcome; the oldest go first. */
  maxQueue: number;
  /** A cap on the held messages' summed `sizeOf` as well (absent: none). */
  maxQueueSize?: number;
  onMessage(message: unknown): void;
  /** Called with each welcome: its `worker` changes when the background restarted. */
  onWelcome?(worker: string): void;
  /** Counted when the queue cap drops a message. */
  onDrop?(message: Message): void;
  /** Reconnect as soon as the port dies (panel), or only when there is something to send (relay). */
  eager: boolean;
  /**
   * Sent messages kept (the newest this many) and sent again, oldest first, on every reconnect:
   * at-least-once delivery across a worker's death. Only for messages the receiver can recognise
   * as already seen (relay batches carry their item numbers); 0 or absent: none.
   */
  maxReplay?: number;
  /** A cap on the kept messages' summed `sizeOf` as well (absent: none). */
  maxReplaySize?: number;
  /** What a message weighs against the size caps. */
  sizeOf?(message: Message): number;
}

export interface PortClient {
  send(message: Message): void;
  /** Opens the port now if it is not open (eager clients call this once to start). */
  start(): void;
  close(): void;
}

/**
 * A long-lived port to the background that survives the MV3 worker's death: the port
 * reconnects, says hello again, and holds outgoing messages in a capped queue until the
 * background's welcome arrives. A lazy client never wakes a sleeping worker for nothing.
 */
/** A message and what it weighs against the size caps, weighed once. */
interface Weighed {
  message: Message;
  size: number;
}

/**
 * A FIFO capped in count and in summed size; past either cap the oldest leave first, each handed
 * to `onLeave`. With `keepNewest` the entry just added always stays, even over the size cap alone.
 */
function cappedFifo(maxCount: number, maxSize: number, keepNewest: boolean) {
  let entries: Weighed[] = [];
  let size = 0;
  const floor = keepNewest ? 1 : 0;
  return {
    get length() {
      return entries.length;
    },
    push(entry: Weighed, onLeave?: (left: Weighed) => void): void {
      entries.push(entry);
      size += entry.size;
      while (entries.length > maxCount || (size > maxSize && entries.length > floor)) {
        const left = entries.shift()!;
        size -= left.size;
        onLeave?.(left);
      }
    },
    shift(): Weighed | undefined {
      const first = entries.shift();
      if (first) size -= first.size;
      return first;
    },
    takeAll(): Weighed[] {
      const all = entries;
      entries = [];
      size = 0;
      return all;
    },
  };
}

export function createPortClient(o: PortClientOptions): PortClient {
  let port: PortLike | null = null;
  let ready = false;
  let closed = false;
  let failures = 0;
  let welcomed = false;
  const queue = cappedFifo(o.maxQueue, o.maxQueueSize ?? Infinity, true);
  const maxReplay = o.maxReplay ?? 0;
  const sent = cappedFifo(maxReplay, o.maxReplaySize ?? Infinity, false);
  const dropQueued = (left: Weighed) => o.onDrop?.(left.message);

  function open(): void {
    if (port || closed || failures >= MAX_FAILED_HANDSHAKES) return;
    let p: PortLike;
    try {
      p = o.connect();
    } catch {
      closed = true; // extension context invalidated (reloaded or removed): nothing to talk to
      return;
    }
    port = p;
    ready = false;
    p.onMessage.addListener((message) => {
      if (port !== p) return;
      if (isBackgroundWelcome(message)) {
        ready = true;
        failures = 0;
        o.onWelcome?.(message.worker);
        // A reconnect: the last port may have died with some of these unread. Before the queue,
        // so the receiver still sees every message in the order it was first sent.
        if (welcomed) for (const again of sent.takeAll()) if (ready) post(again);
        welcomed = true;
        while (queue.length > 0 && ready) post(queue.shift()!);
      } else o.onMessage(message);
    });
    p.onDisconnect.addListener(() => {
      if (port !== p) return;
      if (!ready) failures += 1;
      port = null;
      ready = false;
      if (o.eager || queue.length > 0) open();
    });
    try {
      p.postMessage(o.hello());
    } catch {
      port = null;
      failures += 1;
    }
  }

  function post(entry: Weighed): void {
    try {
      port!.postMessage(entry.message);
      if (maxReplay > 0) sent.push(entry);
    } catch {
      // The port died under us; onDisconnect follows and reconnects.
      queue.push(entry, dropQueued);
      ready = false;
    }
  }

  return {
    send(message) {
      if (closed) return void o.onDrop?.(message);
      const entry = { message, size: o.sizeOf?.(message) ?? 0 };
      if (port && ready) return post(entry);
      queue.push(entry, dropQueued);
      open();
    },
    start: open,
    close() {
      closed = true;
      port?.disconnect();
      port = null;
    },
  };
}
