import { claimsTapSource, isBackgroundAttach, isTapHello, isTapLost, isTapPort, make, type CapturedItem, type Message, type RelayCounters, type TapItem, type TapLoss } from '../shared/messages';
import { validateTapBatch, validateTapLoss } from '../shared/tap-validation';
import type { PortClient } from '../shared/port-client';

/** Batches a relay holds while the worker (re)starts; the oldest go first, and show as gaps. */
export const MAX_RELAY_QUEUE = 1_024;
/** Body text those batches may hold in all: a worker slow to start must not cost the page gigabytes. */
export const MAX_RELAY_QUEUE_CHARS = 32 * 1024 * 1024;
/** Streams one page may open; past it new streams are rejected (and counted). */
export const MAX_STREAMS_PER_PAGE = 100_000;

/** Body text a relay message carries: what its port client weighs its replay window by. */
export function batchChars(message: Message): number {
  if (message.type !== 'relay-batch') return 0;
  let chars = 0;
  for (const item of message.items) if (item.kind === 'chunk') chars += item.text.length;
  return chars;
}

export interface RelayDeps {
  win: Window;
  relay: string;
  /** Built by the caller so tests can pass a fake; see port-client.ts. */
  port: (counters: () => RelayCounters, onMessage: (message: unknown) => void) => PortClient;
  /** Subscribes to runtime messages (the background's attach/detach broadcast). */
  onRuntimeMessage(listener: (message: unknown) => void): void;
}

/**
 * The isolated-world content script. The tap talks to it only over the private port it hands
 * over at document_start (see TapPort in messages.ts); every other tap-branded message on the
 * page's window is the page's own forgery, and is dropped and counted. What comes over the port
 * is validated too (it comes from the page's world). Clean items are decoded, numbered and
 * forwarded. Numbers are consecutive per relay, so whatever is lost downstream shows up as a gap
 * at the panel. The relay also tells its tap whether a panel is attached: until one is, the tap
 * keeps its captures to itself.
 */
export function startRelay(deps: RelayDeps): { counters: () => RelayCounters } {
  const counters: RelayCounters = { sent: 0, rejected: 0, tapDropped: 0, evicted: 0 };
  /** First loss of each API the tap reported (so at most three). */
  const losses: TapLoss[] = [];
  const snapshot = (): RelayCounters => ({ ...counters, ...(losses.length > 0 ? { tapLost: losses.map((l) => ({ ...l })) } : {}) });
  let tapPort: MessagePort | null = null;
  let attached = false;
  const used = new Set<number>();
  const live = new Set<number>();
  const decoders = new Map<number, TextDecoder>();
  let announced = false;
  let reportScheduled = false;

  const onControl = (message: unknown) => {
    if (!isBackgroundAttach(message)) return;
    attached = message.attached;
    tapPort?.postMessage(make('relay-attach', { attached }));
    // Says how much this frame sent in all, so the panel also sees losses after the last batch.
    if (attached && (counters.sent > 0 || counters.rejected > 0 || losses.length > 0)) sendCounters();
  };
  const port = deps.port(snapshot, onControl);

  // Items must follow their stream's life: open once, then response/chunks, then end.
  const consistent = (item: TapItem): boolean => {
    if (item.kind === 'open') {
      if (used.has(item.stream) || used.size >= MAX_STREAMS_PER_PAGE) return false;
      used.add(item.stream);
      live.add(item.stream);
      return true;
    }
    if (!live.has(item.stream)) return false;
    if (item.kind === 'end') live.delete(item.stream);
    return true;
  };

  /** Decodes chunks in stream order; an end flushes its decoder (a cut character becomes U+FFFD). */
  const decode = (item: TapItem, out: CapturedItem[]) => {
    if (item.kind !== 'chunk') {
      if (item.kind === 'end') {
        const tail = decoders.get(item.stream)?.decode() ?? '';
        decoders.delete(item.stream);
        if (tail) out.push({ kind: 'chunk', stream: item.stream, time: item.end.time ?? 0, bytes: 0, text: tail });
      }
      return void out.push(item);
    }
    if (typeof item.data === 'string') return void out.push({ kind: 'chunk', stream: item.stream, time: item.time, bytes: item.data.length, text: item.data });
    let decoder = decoders.get(item.stream);
    if (!decoder) decoders.set(item.stream, (decoder = new TextDecoder()));
    out.push({ kind: 'chunk', stream: item.stream, time: item.time, bytes: item.data.byteLength, text: decoder.decode(item.data, { stream: true }) });
  };

  function sendCounters(): void {
    reportScheduled = false;
    port.send(make('relay-status', { relay: deps.relay, counters: snapshot() }));
  }
  /** Reports counters once per task at most, however many messages asked for it. */
  function scheduleCounters(): void {
    if (reportScheduled) return;
    reportScheduled = true;
    setTimeout(sendCounters, 0);
  }

  function fromTap(data: unknown): void {
    if (isTapHello(data)) {
      // The tap holds captures: say so, which also asks the background whether a panel is attached.
      if (!announced) (announced = true), scheduleCounters();
      return;
    }
    if (isTapLost(data)) {
      const loss = validateTapLoss(data);
      if (!loss) counters.rejected += 1;
      else if (!losses.some((l) => l.api === loss.api)) losses.push(loss);
      return scheduleCounters();
    }
    const checked = validateTapBatch(data);
    const items = checked.items.filter(consistent);
    counters.rejected += checked.rejected + (checked.items.length - items.length);
    if (checked.tapDropped !== null) counters.tapDropped = Math.max(counters.tapDropped, checked.tapDropped);
    if (checked.evicted !== null) counters.evicted = Math.max(counters.evicted ?? 0, checked.evicted);
    if (items.length === 0) {
      if (counters.rejected > 0) scheduleCounters();
      return;
    }
    const out: CapturedItem[] = [];
    for (const item of items) decode(item, out);
    const seq = counters.sent;
    counters.sent += out.length;
    port.send(make('relay-batch', { relay: deps.relay, seq, items: out, counters: snapshot() }));
  }

  // Registered at document_start, before any page script, so the first hand-over it sees is the
  // tap's. Stopping the event is hygiene only: a page listener that saw the port would hold the
  // relay's end, which writes to the tap, never to the relay.
  deps.win.addEventListener(
    'message',
    (event: MessageEvent) => {
      if (!claimsTapSource(event.data)) return; // not ours at all: ignore, count nothing
      if (!tapPort && event.source === deps.win && isTapPort(event.data) && event.ports.length === 1) {
        event.stopImmediatePropagation();
        tapPort = event.ports[0]!;
        tapPort.addEventListener('message', (e: MessageEvent) => fromTap(e.data));
        tapPort.start();
        if (attached) tapPort.postMessage(make('relay-attach', { attached }));
        return;
      }
      // The tap never posts on the window after its port: this is the page's (or another frame's).
      counters.rejected += 1;
      scheduleCounters();
    },
    true,
  );

  deps.onRuntimeMessage(onControl);
  return { counters: snapshot };
}
