/**
 * The proxy's rows, with `mcp-stream-lens proxy` run as it ships (the CLI's vite bundle, in a
 * process of its own, analysing live) in front of bench/proxy-target.ts:
 *
 * - proxy-throughput: a 50 MB SSE stream read through the proxy ÷ read directly (target ≥ 0.9),
 *   with the proxy process's CPU per MB, its forwarding thread apart;
 * - proxy-floor (information): the same stream through a bare TCP byte pipe in Node
 *   (bench/bare-proxy.mjs) ÷ read directly, in the same turns: the most any Node proxy reaches;
 * - proxy-floor-recording (information): the same pipe doing the least any recording proxy must
 *   (`--record`: each read's bytes written to a file, its time and place kept), same turns;
 * - proxy-vs-floor: the proxy's throughput ÷ that bare pipe's (target ≥ 0.9): what HTTP, recording and
 *   live analysis cost beyond forwarding, the part of proxy-throughput that is the proxy's own;
 * - proxy-latency: what the proxy adds to an event, server write to client read, p95 at
 *   1,000 events/s, against the same stream read directly (target ≤ 2 ms);
 * - proxy-memory: the proxy process's resident memory with 100 streams open that carried more
 *   than the recording cap in all, over the same process idle: bounded by the caps
 *   (MAX_RECORDING_BYTES of bodies, plus a fixed allowance for the analysis and Node).
 *
 * Turns alternate between direct and proxied reads; each keeps its best, as noise only adds.
 * One smaller unmeasured turn each way first warms the JIT and grows the heaps (a cold proxy's
 * first read is far slower than its next), and every read starts with the proxy idle.
 *
 *   npx tsx bench/proxy.ts [--smoke]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { MAX_RECORDING_BYTES, MAX_STREAM_RECORD_BYTES } from '../src/proxy/caps';
import { runIfMain } from './cli-browser';
import { processCpu, untilQuiet, type ProcessCpu } from './proc-cpu';
import { startBenchTarget, type BenchTarget } from './proxy-target';
import { row, type BenchRow, type BenchScale } from './row';

const MB = 1024 * 1024;
/**
 * `warmBytes` + `bulkTurns` × `bulkBytes` stays under the recording cap, so that every measured
 * read is recorded (past the cap the proxy forwards without recording, which is faster).
 */
const SCALES = {
  smoke: { warmBytes: 1 * MB, bulkBytes: 5 * MB, bulkTurns: 1, turns: 1, events: 1_000, streams: 100, streamBytes: 64 * 1024 },
  full: { warmBytes: 10 * MB, bulkBytes: 50 * MB, bulkTurns: 4, turns: 3, events: 10_000, streams: 100, streamBytes: 4 * MB },
} as const;
const RATE = 1_000;
/** What the proxy's memory may grow by beyond its recording cap: the analysis, sockets and Node's heap. */
const MEMORY_ALLOWANCE_MB = 128;

const ROOT = resolve(import.meta.dirname, '..');
const CLI_BUILD = resolve(ROOT, 'dist/bench-cli');
const BARE_PROXY = resolve(import.meta.dirname, 'bare-proxy.mjs');

interface Proxy {
  child: ChildProcess;
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts a proxy process (node running `args`) and resolves once the line it prints on `stream`
 * matches `listening`, whose first group is its origin; `close` stops it with SIGTERM.
 */
async function startProcess(name: string, args: string[], stream: 'stdout' | 'stderr', listening: RegExp): Promise<Proxy> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', stream === 'stdout' ? 'pipe' : 'ignore', stream === 'stderr' ? 'pipe' : 'inherit'] });
  let said = '';
  const origin = await new Promise<string>((resolveOrigin, fail) => {
    child[stream]!.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
      const match = listening.exec(said);
      if (match) resolveOrigin(match[1]!);
    });
    child.once('exit', (code) => fail(new Error(`bench: ${name} exited (${code}) before listening:\n${said}`)));
  });
  return {
    child,
    origin,
    close: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))),
  };
}

/** `mcp-stream-lens proxy` (the CLI bundle built into CLI_BUILD) in front of `target`. */
const startProxyProcess = (target: BenchTarget) =>
  startProcess('the proxy', [resolve(CLI_BUILD, 'run.js'), 'proxy', '--target', `${target.origin}/`, '--listen', '127.0.0.1:0', '--no-view'], 'stderr', /mcp-stream-lens proxy: (http:\/\/127\.0\.0\.1:\d+)\/ -> /);

/** bench/bare-proxy.mjs in front of `target`, under plain node; `record` adds the least recording. */
const startBareProxy = (target: BenchTarget, record = false) =>
  startProcess(record ? 'the bare recording proxy' : 'the bare proxy', [BARE_PROXY, target.origin, ...(record ? ['--record'] : [])], 'stdout', /^(http:\/\/127\.0\.0\.1:\d+)\n/);

/** Resident memory of a process, from /proc (Linux), in MB. */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? NaN) / 1024;
}

/** Reads a whole body; resolves with its byte count and the ms it took from the request. */
async function readAll(url: string): Promise<{ bytes: number; ms: number }> {
  const t0 = performance.now();
  const response = await fetch(url);
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return { bytes, ms: performance.now() - t0 };
}

/** Reads a paced stream; per event, ms from the server's write (`"w"`) to this read. */
async function readPaced(url: string): Promise<number[]> {
  const response = await fetch(url);
  const decoder = new TextDecoder();
  const ms: number[] = [];
  let carry = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const at = performance.now();
    carry += decoder.decode(chunk, { stream: true });
    const cut = carry.lastIndexOf('\n\n');
    if (cut < 0) continue;
    for (const match of carry.slice(0, cut).matchAll(/"w":([\d.]+)/g)) ms.push(at - Number(match[1]));
    carry = carry.slice(cut + 2);
  }
  return ms;
}

/** Opens `count` streams of `bytes` each and resolves once every byte of each has been read (they stay open). */
async function openHeld(origin: string, count: number, bytes: number): Promise<AbortController> {
  const abort = new AbortController();
  await Promise.all(Array.from({ length: count }, async () => {
    const response = await fetch(`${origin}/hold?bytes=${bytes}`, { signal: abort.signal });
    const reader = response.body!.getReader();
    let read = 0;
    while (read < bytes) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.length;
    }
  }));
  return abort;
}

const percentile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};
const f = (x: number, digits = 2) => x.toFixed(digits);

type Scale = (typeof SCALES)[BenchScale];

/**
 * proxy-throughput and the floors, in the same turns: direct, through the bare proxy, through the
 * bare recording proxy, through ours; each read starts once our proxy is idle, and its CPU is
 * counted over the measured turns.
 */
async function measureThroughput(s: Scale, target: BenchTarget, proxy: Proxy, floor: Proxy, recordingFloor: Proxy): Promise<[BenchRow, BenchRow, BenchRow, BenchRow]> {
  const recorded = s.warmBytes + s.bulkTurns * s.bulkBytes;
  if (recorded > MAX_RECORDING_BYTES || s.bulkBytes > MAX_STREAM_RECORD_BYTES) throw new Error('bench: the throughput turns would outgrow the recording caps');
  const pid = proxy.child.pid!;
  const ways = [target.origin, floor.origin, recordingFloor.origin, proxy.origin];
  let busy = 0;
  /** ms our proxy kept working after each measured read through it (its analysis catching up). */
  const lag: number[] = [];
  const quiet = async () => {
    const waited = await untilQuiet(pid);
    if (waited === null) busy += 1;
    return waited ?? NaN;
  };
  const read = async (origin: string, bytes: number) => {
    await quiet();
    return readAll(`${origin}/bulk?bytes=${bytes}`);
  };
  for (const origin of ways) await read(origin, s.warmBytes);
  await quiet();
  const floorPid = floor.child.pid!;
  const cpu0 = [processCpu(pid), processCpu(floorPid)] as const;
  const times: number[][] = ways.map(() => []);
  const short = ways.map(() => 0);
  for (let i = 0; i < s.bulkTurns; i++) {
    for (const [w, origin] of ways.entries()) {
      const { bytes, ms } = await read(origin, s.bulkBytes);
      if (bytes < s.bulkBytes) short[w]! += 1;
      times[w]!.push(ms);
    }
    lag.push(await quiet());
  }
  const perMb = (before: ProcessCpu, pidNow: number) => {
    const after = processCpu(pidNow);
    const mb = (s.bulkTurns * s.bulkBytes) / MB;
    return { main: (after.mainMs - before.mainMs) / mb, total: (after.totalMs - before.totalMs) / mb };
  };
  const cpu = perMb(cpu0[0], pid);
  const floorCpu = perMb(cpu0[1], floorPid);
  const [direct, bare, bareRecording, proxied] = times.map((ms) => Math.min(...ms)) as [number, number, number, number];
  const list = (ms: readonly number[]) => ms.map((x) => f(x, 0)).join(' ');
  const mbps = (ms: number) => f(s.bulkBytes / MB / (ms / 1000), 0);
  const turns = `best of ${s.bulkTurns} after a ${s.warmBytes / MB} MB warm-up read each way`;
  const failed = (w: number) => (short[w] ? ` (FAIL: ${short[w]} reads came short)` : '') + (busy ? ` (FAIL: the proxy was still busy before ${busy} reads)` : '');
  const throughput = row({
    name: 'proxy-throughput',
    value: direct / proxied,
    target: 0.9,
    better: 'higher',
    unit: 'x',
    baseline: 'the same stream read directly, same run',
    detail:
      `${s.bulkBytes / MB} MB of 1 KB MCP events, ${turns}, every read recorded (${recorded / MB} MB, under the ${MAX_RECORDING_BYTES / MB} MB cap): ` +
      `direct ${f(direct, 0)} ms (${mbps(direct)} MB/s), through the proxy ${f(proxied, 0)} ms (${mbps(proxied)} MB/s); turns: direct ${list(times[0]!)}, proxied ${list(times[3]!)} ms; ` +
      `proxy CPU per MB: ${f(cpu.main, 1)} ms forwarding (main thread), ${f(cpu.total - cpu.main, 1)} ms other threads (analysis worker, GC), ${f(cpu.total, 1)} ms in all; ` +
      `its analysis, which waits while a burst passes, caught up and left it idle within ${list(lag)} ms of each proxied read's end` +
      failed(3),
  });
  const floorRow = row({
    name: 'proxy-floor',
    value: direct / bare,
    target: Infinity,
    better: 'higher',
    unit: 'x',
    baseline: 'the same stream read directly, same run',
    detail:
      `the most any Node proxy reaches here: the same stream through a bare TCP byte pipe reading into reused buffers (bench/bare-proxy.mjs, its own process; no HTTP, no recording, no analysis), ` +
      `in the same turns: ${f(bare, 0)} ms (${mbps(bare)} MB/s); its CPU per MB ${f(floorCpu.total, 1)} ms` +
      failed(1),
  });
  const recordingFloorRow = row({
    name: 'proxy-floor-recording',
    value: direct / bareRecording,
    target: Infinity,
    better: 'higher',
    unit: 'x',
    baseline: 'the same stream read directly, same run',
    detail:
      `the least any recording proxy does, in Node: the same bare pipe also copying each read's bytes into a reused stage that is written to an unlinked file a megabyte at a time, and keeping each read's time and place (bench/bare-proxy.mjs --record; no HTTP, no analysis), ` +
      `in the same turns: ${f(bareRecording, 0)} ms (${mbps(bareRecording)} MB/s); turns: ${list(times[2]!)} ms; our proxy's throughput ÷ this one's: ${f(bareRecording / proxied)}` +
      failed(2),
  });
  const vsFloor = row({
    name: 'proxy-vs-floor',
    value: bare / proxied,
    target: 0.9,
    better: 'higher',
    unit: 'x',
    baseline: 'the same stream through the bare proxy, same run',
    detail: `through the proxy ${f(proxied, 0)} ms, through the bare proxy ${f(bare, 0)} ms (best of ${s.bulkTurns} each); turns: bare ${list(times[1]!)}, proxied ${list(times[3]!)} ms` + failed(3),
  });
  return [throughput, floorRow, recordingFloorRow, vsFloor];
}

export async function measureProxy(scale: BenchScale): Promise<BenchRow[]> {
  const s = SCALES[scale];
  await build({ configFile: resolve(ROOT, 'vite.cli.config.ts'), logLevel: 'error', build: { outDir: CLI_BUILD } });
  const target = await startBenchTarget();
  const proxy = await startProxyProcess(target);
  const floor = await startBareProxy(target);
  const recordingFloor = await startBareProxy(target, true);
  try {
    const [throughput, floorRow, recordingFloorRow, vsFloor] = await measureThroughput(s, target, proxy, floor, recordingFloor);

    // Latency: best p95 each way.
    let directP95 = Infinity;
    let proxiedP95 = Infinity;
    let proxiedP50 = NaN;
    let received = 0;
    for (let i = 0; i < s.turns; i++) {
      const path = `/paced?events=${s.events}&rate=${RATE}`;
      directP95 = Math.min(directP95, percentile(await readPaced(`${target.origin}${path}`), 0.95));
      const through = await readPaced(`${proxy.origin}${path}`);
      received = through.length;
      const p95 = percentile(through, 0.95);
      if (p95 < proxiedP95) (proxiedP95 = p95), (proxiedP50 = percentile(through, 0.5));
    }
    const latency = row({
      name: 'proxy-latency',
      value: proxiedP95 - directP95,
      target: 2,
      better: 'lower',
      unit: 'ms',
      baseline: 'the same paced stream read directly, same run',
      detail: `added p95, server write to client read, ${s.events.toLocaleString('en')} events at ${RATE.toLocaleString('en')}/s, best of ${s.turns}: through the proxy p50 ${f(proxiedP50)}, p95 ${f(proxiedP95)} ms; direct p95 ${f(directP95)} ms` + (received === s.events ? '' : ` (FAIL: ${received} events arrived)`),
    });

    // Memory: a proxy process of its own, idle and then with the streams open, so that its
    // recording starts empty and the streams can fill the whole cap.
    const fresh = await startProxyProcess(target);
    let idle: number;
    let open: number;
    try {
      idle = rssMb(fresh.child.pid!);
      const held = await openHeld(fresh.origin, s.streams, s.streamBytes);
      open = rssMb(fresh.child.pid!);
      held.abort();
    } finally {
      await fresh.close();
    }
    const capMb = MAX_RECORDING_BYTES / MB;
    const memory = row({
      name: 'proxy-memory',
      value: open - idle,
      target: capMb + MEMORY_ALLOWANCE_MB,
      better: 'lower',
      unit: 'MiB',
      baseline: 'a fresh proxy process idle, same run',
      detail: `${s.streams} open streams of ${f(s.streamBytes / MB, 2)} MB each (${f((s.streams * s.streamBytes) / MB, 0)} MB, the cap records ${capMb} MB in all, in the recording's file rather than the process's memory): RSS ${f(open, 0)} MB open vs ${f(idle, 0)} MB idle; target = the recording cap + ${MEMORY_ALLOWANCE_MB} MB for the analysis and Node`,
    });
    return [throughput, floorRow, recordingFloorRow, vsFloor, latency, memory];
  } finally {
    await recordingFloor.close();
    await floor.close();
    await proxy.close();
    await target.close();
  }
}

await runIfMain(import.meta.url, measureProxy);
