import { createServer } from 'node:http';
import { listen, type Listening } from '../server/listen.js';

/** The body an honest replica sends when it cannot replay; the field report's recommendation. */
export const RESUME_UNAVAILABLE = '{"error":"resume_unavailable"}';

/**
 * A scripted replica that does not hold the event buffer and says so: every resume
 * (`GET` + `Last-Event-ID`) gets `409 Conflict` with a `resume_unavailable` body, which leaves
 * the client an unambiguous retry path (re-issue the call). Anything else gets 404.
 */
export function startRejectingReplica(): Promise<Listening> {
  const server = createServer((req, res) => {
    const isResume = req.method === 'GET' && req.headers['last-event-id'] !== undefined;
    res
      .writeHead(isResume ? 409 : 404, { 'content-type': 'application/json' })
      .end(isResume ? RESUME_UNAVAILABLE : '{"error":"unknown_session"}');
  });
  return listen(server);
}
