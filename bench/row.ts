/**
 * One row of the benchmark table and of `bench/results.json`. Every figure is a ratio (or a size,
 * or a latency) measured against a baseline taken in the same run, because these machines are
 * noisy; `baseline` says what it was measured against.
 */
export type BenchName =
  | 'core-ingest'
  | 'core-vs-framing'
  | 'incremental'
  | 'memory-per-event'
  | 'timeline-frame'
  | 'live-latency'
  | 'panel-main-thread'
  | 'page-tap'
  | 'dormant-tap'
  | 'guard-latency'
  | 'proxy-throughput'
  | 'proxy-floor'
  | 'proxy-floor-recording'
  | 'proxy-vs-floor'
  | 'proxy-latency'
  | 'proxy-memory'
  | 'cli-har'
  | 'cli-har-memory'
  | 'cli-har-big'
  | 'panel-import'
  | 'panel-import-longest-task';

export interface BenchRow {
  name: BenchName;
  value: number;
  /** The target the value must meet, in the direction of `better`; Infinity for a row kept as information. */
  target: number;
  better: 'lower' | 'higher';
  pass: boolean;
  unit: 'x' | 'B/event' | 'ms' | '%' | 'MiB';
  /** What the value was measured against, in words (shown in the table). */
  baseline: string;
  /** Raw figures behind the ratio, for the table's last column. */
  detail: string;
}

/** `smoke`: a small input that proves the benchmark runs (CI); `full`: the figures of record. */
export type BenchScale = 'smoke' | 'full';

/** A row's verdict; a row kept as information (target Infinity) has none to fail, in either direction. */
export function row(fields: Omit<BenchRow, 'pass'>): BenchRow {
  const pass = !Number.isFinite(fields.target) || (fields.better === 'lower' ? fields.value <= fields.target : fields.value >= fields.target);
  return { ...fields, pass };
}

/**
 * In a child of bench/run.ts: sends the rows to the suite and exits once they are sent, rather
 * than wait for the event loop (a browser benchmark may leave a handle behind).
 */
export function sendRows(rows: BenchRow[]): void {
  if (!process.send) throw new Error('bench: sendRows is for a child of bench/run.ts');
  process.send(rows, () => process.exit(0));
}
