import { isMcpRequest, type Header } from '../../core/index';
import type { TapContext } from './context';
import { absoluteUrl, keptBody } from './request-info';

interface Pending {
  method: string;
  url: string;
  headers: Header[];
}

/**
 * Wraps `XMLHttpRequest` for clients that stream through `progress` events. `open` and
 * `setRequestHeader` only note what they were given (the dormant cost); `send` decides, and only
 * an MCP request gets listeners.
 */
export function tapXhr(win: Window & typeof globalThis, ctx: TapContext): void {
  const { p, out } = ctx;
  const pending = new WeakMap<XMLHttpRequest, Pending>();
  const proto = win.XMLHttpRequest.prototype;

  proto.open = function open(this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    pending.set(this, { method: String(method).toUpperCase(), url: String(url), headers: [] });
    return (p.xhrOpen as (...args: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof proto.open;

  proto.setRequestHeader = function setRequestHeader(this: XMLHttpRequest, name: string, value: string) {
    pending.get(this)?.headers.push({ name: String(name), value: String(value) });
    return p.xhrSetRequestHeader.call(this, name, value);
  };

  proto.send = function send(this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const noted = pending.get(this);
    const text = typeof body === 'string' ? body : undefined;
    try {
      if (noted && isMcpRequest({ headers: noted.headers, body: text })) watch(this, noted, text);
    } catch {
      // never let the tap break a page's request
    }
    return p.xhrSend.call(this, body);
  };

  function watch(xhr: XMLHttpRequest, noted: Pending, rawBody: string | undefined): void {
    const stream = ctx.nextStream();
    const { body, cut } = keptBody(rawBody);
    if (cut) out.drop();
    const request = { method: noted.method, url: absoluteUrl(noted.url, p.href()), headers: noted.headers, startTime: p.now(), ...(body === undefined ? {} : { body }) };
    out.emit({ kind: 'open', stream, api: 'xhr', request });
    let seenChars = 0;
    let seenBytes = 0;
    let ended = false;
    const take = (loaded: number) => {
      const textual = xhr.responseType === '' || xhr.responseType === 'text';
      const all = textual ? xhr.responseText : '';
      if (all.length === seenChars && loaded === seenBytes) return;
      out.emit({ kind: 'chunk', stream, time: p.now(), data: all.slice(seenChars) });
      seenChars = all.length;
      seenBytes = loaded;
    };
    const finish = (state: 'complete' | 'reset' | 'cancelled', error?: string) => {
      if (ended) return;
      ended = true;
      out.emit({ kind: 'end', stream, end: { state, time: p.now(), ...(error ? { error } : {}) } });
    };
    xhr.addEventListener('readystatechange', () => {
      if (xhr.readyState !== 2) return; // HEADERS_RECEIVED
      const headers = xhr
        .getAllResponseHeaders()
        .split('\r\n')
        .filter(Boolean)
        .map((line) => ({ name: line.slice(0, line.indexOf(':')), value: line.slice(line.indexOf(':') + 1).trim() }));
      out.emit({ kind: 'response', stream, response: { status: xhr.status, headers } });
    });
    xhr.addEventListener('progress', (e) => take(e.loaded));
    xhr.addEventListener('load', (e) => {
      take(e.loaded);
      finish('complete');
    });
    xhr.addEventListener('error', () => finish('reset', 'XMLHttpRequest network error'));
    xhr.addEventListener('timeout', () => finish('reset', 'XMLHttpRequest timeout'));
    xhr.addEventListener('abort', () => finish('cancelled', 'XMLHttpRequest.abort() by the page'));
  }
}
