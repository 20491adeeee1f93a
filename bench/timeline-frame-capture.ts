/**
 * The timeline benchmark's input: a recorded capture (deliveries, as the shell's `?capture=`
 * takes them) of one MCP session with `events` progress notifications on 10 POST streams, spread
 * over ten minutes, 100 events to a chunk, with app_seq. Built with the panel's own
 * `exchangesToDeliveries`, so it has exactly the shape the background would deliver.
 */
import type { Exchange } from '../src/core/index';
import { exchangesToDeliveries } from '../src/panel/host/replay-adapter';

const STREAMS = 10;
const SESSION_MS = 600_000;
const EVENTS_PER_CHUNK = 100;
const START = Date.UTC(2026, 0, 1);

export function recordedCapture(events: number): string {
  const session = [{ name: 'mcp-session-id', value: 'bench-timeline' }];
  const per = Math.ceil(events / STREAMS);
  const exchanges: Exchange[] = [];
  for (let s = 0; s < STREAMS; s++) {
    const count = Math.max(0, Math.min(per, events - s * per));
    // Streams start staggered, so lane 1 has several rows and the streams overlap in time.
    const startTime = START + (s * SESSION_MS) / (STREAMS * 4);
    const step = (START + SESSION_MS - startTime) / Math.max(1, count);
    const chunks: Exchange['chunks'] = [];
    for (let first = 0; first < count; first += EVENTS_PER_CHUNK) {
      let text = '';
      for (let i = first; i < Math.min(count, first + EVENTS_PER_CHUNK); i++) {
        text += `id: ${s}-${i + 1}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t${s}","progress":${i + 1},"_meta":{"app_seq":${i + 1}}}}\n\n`;
      }
      chunks.push({ time: startTime + (first + EVENTS_PER_CHUNK) * step, data: text });
    }
    exchanges.push({
      method: 'POST',
      url: 'http://127.0.0.1/mcp',
      headers: [...session, { name: 'content-type', value: 'application/json' }],
      body: `{"jsonrpc":"2.0","id":${s + 1},"method":"tools/call","params":{"name":"long","_meta":{"progressToken":"t${s}"}}}`,
      startTime,
      status: 200,
      responseHeaders: [...session, { name: 'content-type', value: 'text/event-stream' }],
      chunks,
      end: { state: 'complete', time: startTime + count * step },
    });
  }
  return JSON.stringify(exchangesToDeliveries(exchanges, 'bench'));
}
