import type { SessionReport } from '../../core/index';
import type { CaptureSource } from './capture-source';
import { sentMessages, type SentMessage } from './request-info';
import { streamLabel } from './stream-labels';

/**
 * Request bodies parsed at most this many at once. Keyed by the body's text, not the stream's
 * index: the live capture renumbers its streams when it rebuilds the analysis. A cache, so what
 * it forgets is parsed again, never lost.
 */
export const MAX_PARSED_BODIES = 2_000;

/** What the requests of a capture sent: the JSON-RPC messages, their ids and the streams' labels. */
export function createRequests(source: CaptureSource) {
  const parsed = new Map<string, SentMessage[]>();
  const byId = new WeakMap<SessionReport, ReadonlyMap<string, string>>();
  const sent = (stream: number): SentMessage[] => {
    const body = source.exchange(stream)?.body;
    if (!body) return [];
    let messages = parsed.get(body);
    if (!messages) {
      if (parsed.size >= MAX_PARSED_BODIES) parsed.clear();
      parsed.set(body, (messages = sentMessages(body)));
    }
    return messages;
  };
  return {
    sent,
    /** The request ids stream `stream` sent, as the analysis keys them. */
    ids: (stream: number): string[] => sent(stream).flatMap((m) => (m.idKey === undefined ? [] : [m.idKey])),
    /** What a stream carries (`tools/call long_task · id 1`, `resume of #3`). */
    label(session: SessionReport, stream: number): string {
      const report = session.streams.find((s) => s.index === stream);
      return report ? streamLabel(report, sent(stream), session.transport) : `stream #${stream}`;
    },
    /** The method of each request id the session's client sent: what a result answers. */
    methodsById(session: SessionReport): ReadonlyMap<string, string> {
      let map = byId.get(session);
      if (!map) {
        const made = new Map<string, string>();
        for (const s of session.streams) for (const m of sent(s.index)) if (m.idKey !== undefined && m.method !== undefined) made.set(m.idKey, m.method);
        byId.set(session, (map = made));
      }
      return map;
    },
  };
}

export type Requests = ReturnType<typeof createRequests>;
