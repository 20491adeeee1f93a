import { describe, expect, it } from 'vitest';
import { rpc, sse } from '../../test/support/fixtures';
import { createGuardAnalysis } from './analysis';
import type { ResumeDecision } from './decision';
import type { Fetch } from './exchange-info';
import { createStreamWatch, MAX_HELD_BYTES, type Refusal } from './watch-fetch';

// The fetch under the guard here is a stand-in for the network that the test writes to, chunk by
// chunk, so it can tell what the client could read before each byte arrived. The real SDK and
// servers drive the same code in test/e2e/guard-sdk.test.ts.

const URL = 'http://127.0.0.1/mcp';
const encoder = new TextEncoder();

/** A response body the test writes to, and whether the guard cancelled it. */
function serverBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c), cancel: () => void (state.cancelled = true) });
  return { body, state, write: (text: string) => controller.enqueue(encoder.encode(text)), end: () => controller.close() };
}

function setUp(unverifiable: 'accept' | 'refuse' = 'accept') {
  const refusals: Refusal[] = [];
  const accepted: Extract<ResumeDecision, { kind: 'accept' }>[] = [];
  const analysis = createGuardAnalysis({});
  const watch = createStreamWatch(analysis, { unverifiable, onTransport: () => undefined, onAccepted: (d) => accepted.push(d), onRefused: (r) => refusals.push(r) });
  const bodies: ReturnType<typeof serverBody>[] = [];
  const network: Fetch = async () => {
    const next = serverBody();
    bodies.push(next);
    return new Response(next.body, { headers: { 'content-type': 'text/event-stream', 'mcp-session-id': 's' } });
  };
  return { fetch: watch.fetch(() => network), bodies, refusals, accepted, analysis };
}

const post = (fetch: Fetch) => fetch(URL, { method: 'POST', headers: { 'mcp-session-id': 's' }, body: JSON.stringify(rpc.call(1)) });
const resume = (fetch: Fetch, lastEventId: string, signal?: AbortSignal) => fetch(URL, { method: 'GET', headers: { 'mcp-session-id': 's', 'last-event-id': lastEventId }, ...(signal && { signal }) });
const text = (chunk: ReadableStreamReadResult<Uint8Array>) => (chunk.done ? '<end>' : new TextDecoder().decode(chunk.value));
/** Runs everything already queued: the streams here settle in promise jobs, with no I/O. */
const drained = async () => {
  for (let turn = 0; turn < 3; turn++) await new Promise((r) => setImmediate(r));
};
/** Whether `promise` is still pending once everything already queued has run. */
const pending = async (promise: Promise<unknown>) => {
  let settled = false;
  promise.then(() => (settled = true), () => (settled = true));
  await drained();
  return !settled;
};

/** A call whose stream delivered progress 1..3 (ids e1..e3) and was then reset. */
async function interrupted(env: ReturnType<typeof setUp>) {
  const reader = (await post(env.fetch)).body!.getReader();
  env.bodies[0]!.write(sse([1, 2, 3].map((n) => ({ id: `e${n}`, data: rpc.progress('tok-1', n, n) }))));
  await reader.read();
  env.bodies[0]!.end();
  await reader.read();
}

describe('createStreamWatch: what the client reads, and when', () => {
  it('passes a POST stream through chunk by chunk, as it arrives', async () => {
    const env = setUp();
    const reader = (await post(env.fetch)).body!.getReader();
    const first = reader.read();
    expect(await pending(first)).toBe(true);
    env.bodies[0]!.write(sse([{ id: 'e1', data: rpc.progress('tok-1', 1, 1) }]));
    expect(text(await first)).toContain('"progress":1');
  });

  it('holds a resume until its first replayed event is judged, then hands it over whole and streams on', async () => {
    const env = setUp();
    await interrupted(env);
    const reader = (await resume(env.fetch, 'e3')).body!.getReader();
    const read = reader.read();
    env.bodies[1]!.write(': keep-alive\n\n');
    expect(await pending(read)).toBe(true);
    env.bodies[1]!.write(sse([{ id: 'e4', data: rpc.progress('tok-1', 4, 4) }]));
    expect(text(await read)).toBe(': keep-alive\n\n');
    expect(text(await reader.read())).toContain('"progress":4');
    expect(env.accepted.map((d) => d.verdict)).toEqual(['genuine']);
    env.bodies[1]!.write(sse([{ id: 'e5', data: rpc.result(1, 5) }]));
    expect(text(await reader.read())).toContain('"result"');
  });

  it('withholds a refused resume: the client reads nothing, the server\'s stream is cancelled, the call is named', async () => {
    const env = setUp();
    await interrupted(env);
    const abort = new AbortController();
    const reader = (await resume(env.fetch, 'e3', abort.signal)).body!.getReader();
    const read = reader.read();
    env.bodies[1]!.write(sse([{ id: 'e4', data: rpc.progress('tok-1', 11, 11) }, { id: 'e5', data: rpc.result(1, 12) }]));
    expect(await pending(read)).toBe(true);
    expect(env.bodies[1]!.state.cancelled).toBe(true);
    expect(env.refusals).toHaveLength(1);
    expect(env.refusals[0]).toMatchObject({ requestIds: [1], withheldEvents: 2, decision: { finding: { code: 'resume-seq-gap' }, root: 0 } });
    // Parked until the client gives up on it: then its read fails, as an aborted fetch's does.
    abort.abort(new Error('closed'));
    await expect(read).rejects.toThrow('closed');
  });

  it('a body the client cancels is cancelled at the server and ends the exchange for the core', async () => {
    const env = setUp();
    const reader = (await post(env.fetch)).body!.getReader();
    await reader.cancel('done with it');
    expect(env.bodies[0]!.state.cancelled).toBe(true);
    expect(env.analysis.report().sessions[0]!.streams[0]!.end).toBe('reset');
  });

  it(`decides with what it has once ${MAX_HELD_BYTES} bytes are held without a replayed event`, async () => {
    const env = setUp('refuse');
    await interrupted(env);
    const reader = (await resume(env.fetch, 'e3')).body!.getReader();
    const read = reader.read();
    const keepAlive = `: ${'x'.repeat(1022)}\n\n`;
    for (let sent = 0; sent <= MAX_HELD_BYTES; sent += keepAlive.length) env.bodies[1]!.write(keepAlive);
    await drained();
    expect(env.refusals.map((r) => r.decision.finding.code)).toEqual(['resume-unverifiable']);
    expect(await pending(read)).toBe(true);
  });
});
