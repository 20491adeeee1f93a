/**
 * Generated MCP SSE traffic for benchmarks: tool calls streaming progress notifications (with
 * app_seq) and results with text payloads, as SDK servers write them (`event: message` on every
 * event), cut into 1–64 KB chunks.
 */
import type { BodyChunk } from '../src/core';

export interface Traffic {
  /** One body per tool call, already cut into chunks. */
  streams: { request: string; chunks: BodyChunk[] }[];
  /**
   * The `data:` payload of every event, for the JSON.parse baseline: all in one string, with
   * where each ends. Not a string each: the benchmarks would then hold 450,000 strings through
   * every turn, which no analysing process holds, and each full collection in the core's turns
   * would mark them all, charging the core for the baseline's inputs.
   */
  payloads: { text: string; ends: number[] };
  events: number;
  bytes: number;
  /** Average body bytes per event, to turn a chunk's size into an event count. */
  bytesPerEvent: number;
}

/** 2026-09-21, a plausible capture time. */
const EPOCH_MS = 1_790_000_000_000;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Builds about `targetBytes` of traffic (or, with `targetEvents`, at least that many events),
 * deterministically from `seed`.
 */
export function generateTraffic(targetBytes: number, seed = 1, targetEvents = Infinity): Traffic {
  const random = prng(seed);
  const encoder = new TextEncoder();
  const streams: Traffic['streams'] = [];
  const payloads: string[] = [];
  const ends: number[] = [];
  let end = 0;
  const keep = (payload: string): void => {
    payloads.push(payload);
    ends.push((end += payload.length));
  };
  let bytes = 0;
  for (let call = 1; bytes < targetBytes && payloads.length < targetEvents; call++) {
    const token = `tok-${call}`;
    const steps = 50 + Math.floor(random() * 400);
    let body = '';
    for (let step = 1; step <= steps; step++) {
      const data = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: step, total: steps, message: `step ${step} of ${steps}`, _meta: { app_seq: step } } });
      keep(data);
      // As the SDK's servers write every event: `event: message`, then the id, then the data.
      body += `event: message\nid: ${call}_${1_790_000_000_000 + step}_${(step * 7919).toString(36)}\ndata: ${data}\n\n`;
    }
    const text = 'x'.repeat(200 + Math.floor(random() * 8000));
    const result = JSON.stringify({ jsonrpc: '2.0', id: call, result: { content: [{ type: 'text', text }], _meta: { app_seq: steps + 1 } } });
    keep(result);
    body += `event: message\nid: ${call}_${1_790_000_000_000 + steps + 1}_end\ndata: ${result}\n\n`;
    const encoded = encoder.encode(body);
    const chunks: BodyChunk[] = [];
    for (let at = 0, t = 0; at < encoded.length; t++) {
      const size = 1024 + Math.floor(random() * 63 * 1024);
      // Epoch milliseconds, as captures stamp them (not small integers, which V8 stores for free).
      chunks.push({ time: EPOCH_MS + call * 1000 + t * 7.5, data: encoded.subarray(at, at + size) });
      at += size;
    }
    bytes += encoded.length;
    streams.push({ request: JSON.stringify({ jsonrpc: '2.0', id: call, method: 'tools/call', params: { name: 'long_task', arguments: {}, _meta: { progressToken: token } } }), chunks });
  }
  return { streams, payloads: { text: payloads.join(''), ends }, events: ends.length, bytes, bytesPerEvent: bytes / ends.length };
}
