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
  /**
   * A copy of `bytes` in a buffer the tap made itself with built-ins taken at document_start, so
   * that buffer, and only it, may be transferred: never one the page holds.
   */
  copyBytes: (bytes: Uint8Array) => { copy: Uint8Array; buffer: ArrayBuffer };
  /**
   * Sends to the relay of this frame, over the tap's private port (relay-port.ts); `transfer`
   * lists buffers of `copyBytes` that the tap gives up (they are moved, not copied again).
   */
  post: (message: unknown, transfer?: ArrayBuffer[]) => void;
  href: () => string;
  /** Reads a property without running page code: a page may have put a getter there. */
  describe: typeof Object.getOwnPropertyDescriptor;
}

export function takePrimordials(win: Window & typeof globalThis, post: Primordials['post']): Primordials {
  const location = win.location;
  const { ArrayBuffer, Uint8Array } = win;
  const typedArray = Object.getPrototypeOf(Uint8Array.prototype) as Uint8Array;
  const byteLength = Object.getOwnPropertyDescriptor(typedArray, 'byteLength')!.get!;
  const set = typedArray.set;
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
    copyBytes(bytes) {
      const buffer = new ArrayBuffer(byteLength.call(bytes) as number);
      const copy = new Uint8Array(buffer);
      set.call(copy, bytes);
      return { copy, buffer };
    },
    post,
    href: () => location.href,
    describe: Object.getOwnPropertyDescriptor,
  };
}
