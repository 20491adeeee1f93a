/**
 * A generated HAR of the shape issue 23 measured: one Streamable HTTP session, tool calls of many
 * `notifications/progress` events each, event ids as the TypeScript SDK writes them
 * (`<streamId>_<ms>_<rand>`, opaque). Written entry by entry, so a 2 GB file costs this process
 * one entry of memory, not the file.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** Progress events per tool call, as in the file. */
export const EVENTS_PER_CALL = 5_000;
const ORIGIN = 'http://127.0.0.1:3000';
const SESSION = '6f1c2a9e-4b7d-4e0a-9c55-1d2e3f4a5b6c';
const EPOCH_MS = 1_790_000_000_000;

const headers = (list: Record<string, string>) => Object.entries(list).map(([name, value]) => ({ name, value }));

function entry(started: number, request: { body: unknown }, response: { status: number; type: string; text: string }, extraRequest: Record<string, string> = {}) {
  const requestText = JSON.stringify(request.body);
  return {
    startedDateTime: new Date(started).toISOString(),
    time: 1000,
    request: {
      method: 'POST',
      url: `${ORIGIN}/mcp`,
      httpVersion: 'HTTP/1.1',
      headers: headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...extraRequest }),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: requestText.length,
      postData: { mimeType: 'application/json', text: requestText },
    },
    response: {
      status: response.status,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: headers({ 'content-type': response.type, 'mcp-session-id': SESSION }),
      cookies: [],
      content: { size: response.text.length, mimeType: response.type, text: response.text },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 999 },
  };
}

/** One tool call's SSE body: its progress events, then its result. */
function toolCallBody(call: number, events: number): string {
  const stream = `${(call * 2654435761 >>> 0).toString(16)}`;
  const token = `call-${call}`;
  let body = '';
  for (let step = 1; step <= events; step++) {
    const data = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: step, total: events, message: `step ${step}` } });
    body += `event: message\nid: ${stream}_${EPOCH_MS + call * 10_000 + step}_${((step * 7919) % 46656).toString(36)}\ndata: ${data}\n\n`;
  }
  const result = JSON.stringify({ jsonrpc: '2.0', id: call + 1, result: { content: [{ type: 'text', text: `done ${call}` }] } });
  return `${body}event: message\nid: ${stream}_${EPOCH_MS + call * 10_000 + events + 1}_end\ndata: ${result}\n\n`;
}

/**
 * Writes the HAR to `file`, adding tool calls until it holds at least `targetBytes`. Resolves
 * to its size and event count.
 */
export async function writeBenchHar(file: string, targetBytes: number, eventsPerCall = EVENTS_PER_CALL): Promise<{ bytes: number; events: number }> {
  const out = createWriteStream(file);
  let bytes = 0;
  let events = 0;
  const write = async (text: string): Promise<void> => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"log":{"version":"1.2","creator":{"name":"bench-har","version":"1"},"pages":[],"entries":[\n`);
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
  const initResult = JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1' } } });
  await write(JSON.stringify(entry(EPOCH_MS, { body: init }, { status: 200, type: 'application/json', text: initResult })));
  for (let call = 0; bytes < targetBytes; call++) {
    const request = { jsonrpc: '2.0', id: call + 1, method: 'tools/call', params: { name: 'long_task', arguments: {}, _meta: { progressToken: `call-${call}` } } };
    const text = toolCallBody(call, eventsPerCall);
    await write(`,\n${JSON.stringify(entry(EPOCH_MS + call * 10_000, { body: request }, { status: 200, type: 'text/event-stream', text }, { 'mcp-session-id': SESSION }))}`);
    events += eventsPerCall + 1;
  }
  await write('\n]}}\n');
  out.end();
  await once(out, 'close');
  return { bytes, events };
}
