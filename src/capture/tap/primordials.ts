/**
 * Built-ins the tap needs, taken before any page script runs. A page may later replace
 * `setTimeout`, `TextDecoder` or `postMessage` (polyfills, zones, test spies); the tap keeps
 * working with the originals and never calls into page code by accident.
 */
export interface Primordials {
  fetch: typeof fetch;
  EventSource: typeof EventSource | undefined;
  xhrOpen: XMLHttpRequest['open'];
  xhrSend: XMLHttpRequest['send'];
  xhrSetRequestHeader: XMLHttpRequest['setRequestHeader'];
  TextDecoder: typeof TextDecoder;
  Response: typeof Response;
  Request: typeof Request;
  ReadableStream: typeof ReadableStream;
  Headers: typeof Headers;
  setTimeout: (fn: () => void, ms: number) => unknown;
  now: () => number;
  /** Sends to the relay of this frame, over the tap's private port (relay-port.ts). */
  post: (message: unknown) => void;
  href: () => string;
  /** Reads a property without running page code: a page may have put a getter there. */
  describe: typeof Object.getOwnPropertyDescriptor;
}

export function takePrimordials(win: Window & typeof globalThis, post: (message: unknown) => void): Primordials {
  const location = win.location;
  return {
    fetch: win.fetch,
    EventSource: win.EventSource,
    xhrOpen: win.XMLHttpRequest.prototype.open,
    xhrSend: win.XMLHttpRequest.prototype.send,
    xhrSetRequestHeader: win.XMLHttpRequest.prototype.setRequestHeader,
    TextDecoder: win.TextDecoder,
    Response: win.Response,
    Request: win.Request,
    ReadableStream: win.ReadableStream,
    Headers: win.Headers,
    setTimeout: win.setTimeout.bind(win),
    now: Date.now,
    post,
    href: () => location.href,
    describe: Object.getOwnPropertyDescriptor,
  };
}
