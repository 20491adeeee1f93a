import type { ServerResponse } from 'node:http';
import type { CapturedItem, Delivery } from '../shared/messages';
import { MAX_FEED_TEXT_CHARS, MAX_VIEWER_BACKLOG_BYTES, MAX_VIEWERS, type ProxyCounters } from './caps';
import type { Recording, RecordingEvent } from './recording';

/**
 * The live view's feed: what the proxy records, as the deliveries a page relay sends the panel
 * (open, response, decoded chunks, end), one SSE message per batch. A viewer that joins late
 * first gets everything recorded so far. Each viewer is its own relay, numbered from 0, so the
 * panel's drop ledger counts any gap, and `tapDropped` carries what the proxy did not record.
 */
export interface LiveFeed {
  /** Serves one viewer's feed on `res` until it or the proxy goes away. */
  serve(res: ServerResponse): void;
  /** Ends every feed. */
  close(): void;
}

export function createLiveFeed(recording: Recording, counters: ProxyCounters): LiveFeed {
  const viewers = new Set<ServerResponse>();
  let next = 0;
  const notRecorded = () => counters.exchangesNotRecorded + counters.streamsClipped;

  return {
    serve(res) {
      if (viewers.size >= MAX_VIEWERS) {
        counters.viewersCut += 1;
        res.writeHead(503, { 'content-type': 'text/plain' }).end(`at most ${MAX_VIEWERS} live views at once\n`);
        return;
      }
      viewers.add(res);
      const relay = `proxy-${++next}`;
      const decoders = new Map<number, TextDecoder>();
      let seq = 0;
      let pending: CapturedItem[] = [];
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        if (pending.length === 0 || res.destroyed) return;
        const items = pending;
        pending = [];
        const delivery: Delivery = { from: 'relay', relay, seq, items, counters: { sent: seq + items.length, rejected: 0, tapDropped: notRecorded() } };
        seq += items.length;
        res.write(`data: ${JSON.stringify(delivery)}\n\n`);
        // A viewer that cannot keep up is cut rather than buffered without end; its page says so.
        if (res.writableLength > MAX_VIEWER_BACKLOG_BYTES) {
          counters.viewersCut += 1;
          res.destroy();
        }
      };
      const push = (event: RecordingEvent) => {
        pending.push(...itemsOf(event, decoders));
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.flushHeaders();
      recording.replay(push);
      const unsubscribe = recording.subscribe(push);
      res.on('close', () => {
        unsubscribe();
        viewers.delete(res);
      });
    },
    close() {
      for (const res of viewers) res.end();
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
    case 'chunk': {
      let decoder = decoders.get(stream);
      if (!decoder) decoders.set(stream, (decoder = new TextDecoder()));
      return textItems(stream, event.time, event.data.length, decoder.decode(event.data, { stream: true }));
    }
    case 'end': {
      const tail = decoders.get(stream)?.decode() ?? '';
      decoders.delete(stream);
      return [...(tail === '' ? [] : textItems(stream, x.end.time ?? x.startTime, 0, tail)), { kind: 'end', stream, end: x.end }];
    }
  }
}

function textItems(stream: number, time: number, bytes: number, text: string): CapturedItem[] {
  if (text.length <= MAX_FEED_TEXT_CHARS) return [{ kind: 'chunk', stream, time, bytes, text }];
  const items: CapturedItem[] = [];
  for (let at = 0; at < text.length; at += MAX_FEED_TEXT_CHARS) {
    items.push({ kind: 'chunk', stream, time, bytes: at === 0 ? bytes : 0, text: text.slice(at, at + MAX_FEED_TEXT_CHARS) });
  }
  return items;
}
