import { createServer } from 'node:http';
import { listen, type Listening } from '../server/listen.js';
import type { SessionTable } from './session-table.js';

export interface BadReplicaOptions {
  /** Shared session metadata: the bad replica knows which call is in flight, not its events. */
  sessions: SessionTable;
  /** The app_seq of the one progress event it invents; the jump is the visible evidence. */
  fakeAppSeq: number;
}

/**
 * A scripted replica that lost the event buffer but answers a resume anyway: the failure of the
 * field report. No real server does this on demand, so it is scripted.
 *
 * For `GET` + `Last-Event-ID` it answers `200 text/event-stream`, invents the next event id in
 * the TypeScript SDK's format (`<streamId>_<ms>_<rand>`, same stream id as the client's cursor),
 * sends one progress notification whose app_seq jumps to `fakeAppSeq`, then a terminal result
 * for the original request id (app_seq `fakeAppSeq + 1`), and closes the stream.
 */
export function startBadReplica({ sessions, fakeAppSeq }: BadReplicaOptions): Promise<Listening> {
  const server = createServer((req, res) => {
    const sessionId = String(req.headers['mcp-session-id'] ?? '');
    const lastEventId = String(req.headers['last-event-id'] ?? '');
    const call = sessions.lastToolCall(sessionId);
    if (req.method !== 'GET' || !lastEventId || !call) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown_session"}');
      return;
    }
    const streamId = lastEventId.split('_')[0] ?? lastEventId;
    const nextId = () => `${streamId}_${Date.now()}_${Math.random().toString(36).slice(2, 10)}`;
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: call.progressToken ?? call.requestId, progress: fakeAppSeq, _meta: { app_seq: fakeAppSeq } },
    };
    const result = {
      jsonrpc: '2.0',
      id: call.requestId,
      result: { content: [{ type: 'text', text: 'long_task finished' }], _meta: { app_seq: fakeAppSeq + 1 } },
    };
    // The same headers and framing the SDK's replay uses, so only the payloads give it away.
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'mcp-session-id': sessionId,
    });
    res.write(`event: message\nid: ${nextId()}\ndata: ${JSON.stringify(progress)}\n\n`);
    res.end(`event: message\nid: ${nextId()}\ndata: ${JSON.stringify(result)}\n\n`);
  });
  return listen(server);
}
