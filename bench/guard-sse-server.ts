import { createServer } from 'node:http';
import { listen, type Listening } from '../demo/server/listen';

/** The guard bench's stream: `events` progress events at `rate`/s, cut after `cut`, resumed genuinely. */
export interface PacedCall {
  rate: number;
  events: number;
  /** The POST's stream is reset after this event; the resume replays the rest. */
  cut: number;
}

const SESSION = 'guard-bench';
const id = (n: number) => `s_${n}`;
const progress = (n: number) =>
  `id: ${id(n)}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n},"_meta":{"app_seq":${n}}}}\n\n`;
const result = (n: number) => `id: ${id(n)}\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"app_seq":${n}}}}\n\n`;

/**
 * A Streamable HTTP endpoint that answers one tool call the way a drained replica with a shared
 * log does: the POST streams app_seq 1..`cut` at `rate`/s, then its connection is destroyed; the
 * resume (`GET` + `Last-Event-ID`) replays from the next event on, at the same pace, and ends
 * with the result. The events are written as the clock says they are due, so a late timer sends
 * several in one write, as a busy server does. Scripted: the bench needs exact pacing, not a tool.
 */
export function startPacedServer(call: PacedCall): Promise<Listening> {
  const server = createServer((req, res) => {
    const resumeFrom = req.headers['last-event-id'];
    if (req.method === 'POST') {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': SESSION });
        pace(1, call.cut, call.rate, (text) => res.write(text), () => res.socket?.destroy());
      });
      return;
    }
    const from = typeof resumeFrom === 'string' ? Number(resumeFrom.slice(2)) + 1 : NaN;
    if (req.method !== 'GET' || !Number.isInteger(from)) return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': SESSION });
    pace(from, call.events, call.rate, (text) => res.write(text), () => res.end(result(call.events + 1)));
  });
  return listen(server);
}

/** Writes progress events `from`..`to`, each when `rate` says it is due, then calls `done`. */
function pace(from: number, to: number, rate: number, write: (text: string) => void, done: () => void): void {
  const start = performance.now();
  let next = from;
  const tick = (): void => {
    const due = Math.min(to, from + Math.floor(((performance.now() - start) * rate) / 1000));
    let text = '';
    for (; next <= due; next++) text += progress(next);
    if (text) write(text);
    if (next > to) return done();
    setTimeout(tick, 1);
  };
  tick();
}
