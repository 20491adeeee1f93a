import type { ServerResponse } from 'node:http';
import type { CapturedItem, Delivery } from '../shared/messages';
import { MAX_FEED_TEXT_CHARS, MAX_VIEWER_BACKLOG_BYTES, MAX_VIEWERS, type ProxyCounters } from './caps';
import type { Recording, RecordingEvent } from './recording';

/**
 * The live view's feed: what the proxy records, as the deliveries a page relay sends the panel
 * (open, response, decoded chunks, end), one SSE message per batch. A viewer that joins late
 * first gets everything recorded so far. Each viewer is its own relay, numbered from 0, so the
 * panel's drop ledger counts any gap, and `tapDropped` carries what the proxy did not record.
 *
 * Each message's SSE id says where the viewer then stands (see {@link FeedPosition}), so an
 * `EventSource` whose connection broke reconnects with it as `Last-Event-ID` and the feed goes on
 * from there: the same relay, its numbering continued, the recording's events after the last one
 * the page had, none twice. A proxy that stops sends `event: end` first, so the page stops too.
 */
export interface LiveFeed {
  /**
   * Serves one viewer's feed on `res` until it or the proxy goes away; `lastEventId` resumes a
   * feed (false when it names no feed this proxy served: answered 400, since a fresh feed would
   * show that page everything twice).
   */
  serve(res: ServerResponse, lastEventId?: string): boolean;
  /** Ends every feed. */
  close(): void;
}

/** Where a viewer stands: its relay, the items it was sent, the recording's last event among them. */
interface FeedPosition {
  relay: number;
  items: number;
  recorded: number;
}

/** A feed's reconnect delay for `EventSource` (its own default is seconds). */
const RETRY_MS = 500;

const positionId = (p: FeedPosition) => `${p.relay}.${p.items}.${p.recorded}`;

/** A `Last-Event-ID` as a position this proxy gave out, else undefined (it came from the page). */
function parsePosition(text: string, relays: number, lastSeq: number): FeedPosition | undefined {
  const match = /^(\d{1,9})\.(\d{1,15})\.(\d{1,15})$/.exec(text);
  if (!match) return undefined;
  const [relay, items, recorded] = match.slice(1).map(Number) as [number, number, number];
  return relay >= 1 && relay <= relays && recorded <= lastSeq ? { relay, items, recorded } : undefined;
}

export function createLiveFeed(recording: Recording, counters: ProxyCounters): LiveFeed {
  const viewers = new Set<ServerResponse>();
  let next = 0;
  const notRecorded = () => counters.exchangesNotRecorded + counters.streamsClipped;

  return {
    serve(res, lastEventId) {
      const resumed = lastEventId === undefined ? undefined : parsePosition(lastEventId, next, recording.lastSeq());
      if (lastEventId !== undefined && !resumed) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('this feed cannot be resumed here; reload the view\n');
        return false;
      }
      if (viewers.size >= MAX_VIEWERS) {
        counters.viewersCut += 1;
        res.writeHead(503, { 'content-type': 'text/plain' }).end(`at most ${MAX_VIEWERS} live views at once\n`);
        return true;
      }
      viewers.add(res);
      const at: FeedPosition = resumed ?? { relay: ++next, items: 0, recorded: 0 };
      const relay = `proxy-${at.relay}`;
      const decoders = new Map<number, TextDecoder>();
      let pending: CapturedItem[] = [];
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        if (pending.length === 0 || res.destroyed) return;
        const items = pending;
        pending = [];
        const seq = at.items;
        const delivery: Delivery = { from: 'relay', relay, seq, items, counters: { sent: seq + items.length, rejected: 0, tapDropped: notRecorded() } };
        at.items += items.length;
        res.write(`id: ${positionId(at)}\ndata: ${JSON.stringify(delivery)}\n\n`);
        // A viewer that cannot keep up is cut rather than buffered without end; its page says so.
        if (res.writableLength > MAX_VIEWER_BACKLOG_BYTES) {
          counters.viewersCut += 1;
          res.destroy();
        }
      };
      const push = (event: RecordingEvent) => {
        pending.push(...itemsOf(event, decoders));
        at.recorded = Math.max(at.recorded, event.seq);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(`retry: ${RETRY_MS}\n\n`);
      if (resumed) {
        const since = recording.since(resumed.recorded);
        // A body's text decoder resumes in the state the page's last chunk of it left.
        for (const { rec, data } of since.before) decoderOf(decoders, rec.index).decode(data, { stream: true });
        for (const event of since.events) push(event);
      } else {
        recording.replay(push);
        // The replay holds everything up to here, in exchange order rather than the recording's.
        at.recorded = recording.lastSeq();
      }
      const unsubscribe = recording.subscribe(push);
      res.on('close', () => {
        unsubscribe();
        viewers.delete(res);
      });
      return true;
    },
    close() {
      for (const res of viewers) res.end('event: end\ndata: \n\n');
      viewers.clear();
    },
  };
}

/** One recording event as relay items; body bytes decoded in stream order, split to a bounded size. */
function itemsOf(event: RecordingEvent, decoders: Map<number, TextDecoder>): CapturedItem[] {
  const { rec } = event;
  const stream = rec.index;
  const x = rec.exchange;
  switch (event.kind) {
    case 'open': {
      const request = { method: x.method, url: x.url, headers: x.headers, startTime: x.startTime, ...(x.body === undefined ? {} : { body: x.body }) };
      return [{ kind: 'open', stream, api: 'fetch', request }];
    }
    case 'response':
      return [{ kind: 'response', stream, response: { status: x.status, headers: x.responseHeaders } }];
    case 'chunk':
      return textItems(stream, event.time, event.data.length, decoderOf(decoders, stream).decode(event.data, { stream: true }));
    case 'end': {
      const tail = decoders.get(stream)?.decode() ?? '';
      decoders.delete(stream);
      return [...(tail === '' ? [] : textItems(stream, x.end.time ?? x.startTime, 0, tail)), { kind: 'end', stream, end: x.end }];
    }
  }
}

function decoderOf(decoders: Map<number, TextDecoder>, stream: number): TextDecoder {
  let decoder = decoders.get(stream);
  if (!decoder) decoders.set(stream, (decoder = new TextDecoder()));
  return decoder;
}

function textItems(stream: number, time: number, bytes: number, text: string): CapturedItem[] {
  if (text.length <= MAX_FEED_TEXT_CHARS) return [{ kind: 'chunk', stream, time, bytes, text }];
  const items: CapturedItem[] = [];
  for (let at = 0; at < text.length; at += MAX_FEED_TEXT_CHARS) {
    items.push({ kind: 'chunk', stream, time, bytes: at === 0 ? bytes : 0, text: text.slice(at, at + MAX_FEED_TEXT_CHARS) });
  }
  return items;
}
