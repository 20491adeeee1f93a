/**
 * guard-latency: what `mcp-stream-lens/guard` adds to each event the SDK client receives, p95 at
 * 1,000 events/s, against the same client without the guard in the same run (target: at most
 * 1 ms more).
 *
 * The real SDK `StreamableHTTPClientTransport` calls a paced server (guard-sse-server.ts): the
 * tool call's stream is reset a tenth of the way in and the SDK resumes it, genuinely, so most
 * events arrive on a resume the guard has judged and handed over. An event's latency runs from
 * the moment its bytes reach the client (a fetch under the guard stamps each chunk) to the
 * transport's `onmessage`. The guard runs as the package ships it: its vite bundle, not tsx's
 * loader. Turns alternate between the two clients; each keeps its best turn, as noise only adds.
 *
 *   npx tsx bench/guard-latency.ts [--smoke]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'vite';
import { runIfMain } from './cli-browser';
import { startPacedServer, type PacedCall } from './guard-sse-server';
import { row, type BenchRow, type BenchScale } from './row';

type Guard = typeof import('../src/guard/index');

const SCALES = {
  smoke: { rate: 1_000, events: 1_000, turns: 1 },
  full: { rate: 1_000, events: 10_000, turns: 3 },
} as const;
/** The most the guard may add to an event's p95, in ms. */
const TARGET_MS = 1;

const ROOT = resolve(import.meta.dirname, '..');
const GUARD_BUILD = resolve(ROOT, 'dist/bench-guard');

/** The guard's bundle, built from vite.guard.config.ts into a folder of its own (dist/guard keeps its types). */
async function loadGuard(): Promise<Guard> {
  await build({ configFile: resolve(ROOT, 'vite.guard.config.ts'), logLevel: 'error', build: { outDir: GUARD_BUILD } });
  return (await import(pathToFileURL(resolve(GUARD_BUILD, 'index.js')).href)) as Guard;
}

/** `fetch`, stamping when each event's last byte arrives, keyed by its `id:` (`s_<app_seq>`). */
function stampingFetch(arrivals: Map<number, number>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const decoder = new TextDecoder();
    let carry = '';
    const stamped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const at = performance.now();
          carry += decoder.decode(chunk, { stream: true });
          const cut = carry.lastIndexOf('\n\n');
          if (cut >= 0) {
            for (const match of carry.slice(0, cut).matchAll(/^id: s_(\d+)$/gm)) arrivals.set(Number(match[1]), at);
            carry = carry.slice(cut + 2);
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(stamped, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

interface Turn {
  /** Per event, ms from its bytes reaching the client to the transport's onmessage. */
  ms: number[];
  /** The first replayed event's: the one a guard holds until the core has judged the resume. */
  firstReplayed: number;
  events: number;
  refused: number;
}

/** One call through the paced server, guarded or not; resolves once the result arrives. */
async function turn(call: PacedCall, guard: Guard | undefined): Promise<Turn> {
  const server = await startPacedServer(call);
  const arrivals = new Map<number, number>();
  const delivered = new Map<number, number>();
  const plain = new StreamableHTTPClientTransport(new URL(server.url), {
    fetch: stampingFetch(arrivals),
    reconnectionOptions: { initialReconnectionDelay: 10, maxReconnectionDelay: 10, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
  });
  const guarded = guard?.guardTransport(plain, { onEvent: () => undefined });
  const transport = guarded ?? plain;
  try {
    const done = new Promise<void>((resolveDone, fail) => {
      transport.onerror = (error) => void (error.message.startsWith('Maximum') && fail(error));
      transport.onmessage = (message: JSONRPCMessage) => {
        const at = performance.now();
        const seq = ((('params' in message ? message.params : 'result' in message ? message.result : undefined) as { _meta?: { app_seq?: number } } | undefined)?._meta?.app_seq);
        if (seq !== undefined) delivered.set(seq, at);
        if ('result' in message) resolveDone();
      };
    });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bench', arguments: {}, _meta: { progressToken: 1 } } });
    await done;
  } finally {
    await transport.close();
    await server.close();
  }
  const ms: number[] = [];
  for (const [seq, at] of delivered) {
    const arrived = arrivals.get(seq);
    if (arrived !== undefined) ms.push(at - arrived);
  }
  const first = call.cut + 1;
  return {
    ms,
    firstReplayed: (delivered.get(first) ?? NaN) - (arrivals.get(first) ?? NaN),
    events: delivered.size,
    refused: guarded?.guard.stats().refused ?? 0,
  };
}

const percentile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

interface Summary {
  p50: number;
  p95: number;
  max: number;
  firstReplayed: number;
  events: number;
}

function summary(t: Turn): Summary {
  const sorted = [...t.ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1) ?? NaN, firstReplayed: t.firstReplayed, events: t.events };
}

/** The row, and each client's best turn (the smoke test checks those too). */
export async function runGuardLatency(scale: BenchScale): Promise<{ row: BenchRow; guarded: Summary; plain: Summary; refused: number }> {
  const { rate, events, turns } = SCALES[scale];
  const call: PacedCall = { rate, events, cut: Math.floor(events / 10) };
  const guard = await loadGuard();
  let guarded: Summary | undefined;
  let plain: Summary | undefined;
  let refused = 0;
  let cold = NaN;
  const better = (a: Summary | undefined, b: Summary) => (a && a.p95 <= b.p95 ? a : b);
  for (let i = 0; i < turns; i++) {
    const withGuard = await turn(call, guard);
    if (i === 0) cold = summary(withGuard).p95;
    refused += withGuard.refused;
    guarded = better(guarded, summary(withGuard));
    plain = better(plain, summary(await turn(call, undefined)));
  }
  const f = (x: number) => x.toFixed(2);
  const complete = guarded!.events === events + 1 && plain!.events === events + 1 && refused === 0;
  const measured = row({
    name: 'guard-latency',
    value: guarded!.p95 - plain!.p95,
    target: TARGET_MS,
    better: 'lower',
    unit: 'ms',
    baseline: 'the same SDK client without the guard, same run',
    detail:
      `added p95 per event at ${rate.toLocaleString('en')}/s over ${events.toLocaleString('en')} events (a tenth on the POST, the rest on a genuine resume), best of ${turns}: ` +
      `guarded p50 ${f(guarded!.p50)}, p95 ${f(guarded!.p95)}, max ${f(guarded!.max)} ms; unguarded p50 ${f(plain!.p50)}, p95 ${f(plain!.p95)}, max ${f(plain!.max)} ms; ` +
      `first replayed event (held until judged) ${f(guarded!.firstReplayed)} vs ${f(plain!.firstReplayed)} ms; ` +
      `a fresh process's first guarded call (the core not yet compiled) p95 ${f(cold)} ms` +
      (complete ? '' : ` (FAIL: every event must arrive and no genuine resume be refused; refused ${refused})`),
  });
  return { row: { ...measured, pass: measured.pass && complete }, guarded: guarded!, plain: plain!, refused };
}

export async function measureGuardLatency(scale: BenchScale): Promise<BenchRow[]> {
  return [(await runGuardLatency(scale)).row];
}

await runIfMain(import.meta.url, measureGuardLatency);
