import { createServer } from 'node:http';
import { listen, type Listening } from '../server/listen.js';

/** The SDK's own keep-alive frame, so the empty replay looks like an idle SDK stream. */
const KEEP_ALIVE = ': keepalive\n\n';
/** How many keep-alives the replica sends before it closes. */
export const KEEP_ALIVES = 2;

/**
 * A scripted replica that accepts a resume and replays nothing: for `GET` + `Last-Event-ID` it
 * answers `200 text/event-stream` with the SDK's headers, sends only keep-alive comments, and
 * closes. No real server does this on demand, so it is scripted. Anything else gets 404.
 */
export function startEmptyReplica(): Promise<Listening> {
  const server = createServer((req, res) => {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method !== 'GET' || req.headers['last-event-id'] === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown_session"}');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      ...(typeof sessionId === 'string' && { 'mcp-session-id': sessionId }),
    });
    res.end(KEEP_ALIVE.repeat(KEEP_ALIVES));
  });
  return listen(server);
}
