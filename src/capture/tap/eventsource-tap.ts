import type { TapContext } from './context';
import { absoluteUrl } from './request-info';

/**
 * Wraps `EventSource`. It cannot set headers, so on the web it only carries the legacy HTTP+SSE
 * transport, which opens with an `endpoint` event. Until that event the wrapper does nothing but
 * hold one listener (dormant). From then on each event is re-serialised as SSE text, since the
 * API hides the raw bytes; each reconnection the browser makes becomes a new stream with the
 * `Last-Event-ID` it sent.
 */
export function tapEventSource(win: Window & typeof globalThis, ctx: TapContext): void {
  const Original = ctx.p.EventSource;
  if (!Original) return;
  const { p, out } = ctx;

  class EventSource extends Original {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      const href = absoluteUrl(String(url), p.href());
      let stream = -1;
      let lastId = '';
      let closedByPage = false;
      const open = (lastEventId: string) => {
        stream = ctx.nextStream();
        const headers = [{ name: 'Accept', value: 'text/event-stream' }];
        if (lastEventId) headers.push({ name: 'Last-Event-ID', value: lastEventId });
        out.emit({ kind: 'open', stream, api: 'eventsource', request: { method: 'GET', url: href, headers, startTime: p.now() } });
        out.emit({ kind: 'response', stream, response: { status: 200, headers: [{ name: 'Content-Type', value: 'text/event-stream' }] } });
      };
      const record = (type: string) => (event: Event) => {
        const message = event as MessageEvent;
        if (stream < 0) {
          if (type !== 'endpoint') return; // not MCP (yet): stay dormant
          open('');
        }
        if (closedByPage) return;
        lastId = message.lastEventId;
        const data = String(message.data).split('\n').map((line) => `data: ${line}\n`).join('');
        const text = `${lastId ? `id: ${lastId}\n` : ''}${type === 'message' ? '' : `event: ${type}\n`}${data}\n`;
        out.emit({ kind: 'chunk', stream, time: p.now(), data: text });
      };
      this.addEventListener('endpoint', record('endpoint'));
      this.addEventListener('message', record('message'));
      this.addEventListener('open', () => {
        // A reconnection: the browser sent Last-Event-ID with the last id it saw.
        if (stream >= 0 && !closedByPage) open(lastId);
      });
      this.addEventListener('error', () => {
        if (stream < 0 || closedByPage) return;
        // The API tells only that the connection failed: CONNECTING means the browser retries.
        const error = this.readyState === Original!.CLOSED ? 'EventSource failed' : 'EventSource error (reconnecting)';
        out.emit({ kind: 'end', stream, end: { state: 'reset', time: p.now(), error } });
      });
      this.close = () => {
        if (stream >= 0 && !closedByPage && this.readyState !== Original!.CLOSED) {
          out.emit({ kind: 'end', stream, end: { state: 'cancelled', time: p.now(), error: 'EventSource.close() by the page' } });
        }
        closedByPage = true;
        Original!.prototype.close.call(this);
      };
    }
  }
  Object.defineProperty(EventSource, 'name', { value: 'EventSource' });
  win.EventSource = EventSource;
}
