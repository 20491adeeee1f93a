import { make } from '../../shared/messages';

/** The tap's end of its private channel to the relay of this frame. */
export interface RelayPort {
  /** Sends a message to the relay, moving the `transfer` buffers (the tap's own) rather than copying them. */
  post(message: unknown, transfer?: ArrayBuffer[]): void;
  /** Sets the one listener for what the relay sends (attach and detach). */
  listen(fn: (message: unknown) => void): void;
}

/**
 * Opens the tap's private channel: a MessageChannel whose other end goes to the relay in the one
 * window message the tap ever posts (`tap-port`, no data). This runs at document_start, before any
 * page script, so the relay's first hand-over is this one. Only the tap holds `port1`, the one end
 * that writes to the relay. Without this, any page script could post a well-formed batch on the
 * window and the panel would show it as captured.
 */
export function openRelayPort(win: Window & typeof globalThis): RelayPort {
  const channel = new win.MessageChannel();
  // Taken now: a page may later replace MessagePort.prototype.postMessage.
  const send = win.MessagePort.prototype.postMessage;
  const own = channel.port1;
  let listener: (message: unknown) => void = () => undefined;
  own.onmessage = (event: MessageEvent) => listener(event.data);
  // Same-window only: the relay of this frame listens on this window, nobody else needs it.
  const origin = win.location.origin === 'null' ? '*' : win.location.origin;
  win.postMessage(make('tap-port', {}), origin, [channel.port2]);
  return {
    post: (message, transfer) => {
      if (!transfer || transfer.length === 0) return send.call(own, message);
      try {
        send.call(own, message, { transfer });
      } catch {
        // The transfer list goes through the page's Array iterator, which a page may break; a
        // failed transfer moves nothing, so the message still goes, copied.
        send.call(own, message);
      }
    },
    listen: (fn) => void (listener = fn),
  };
}
