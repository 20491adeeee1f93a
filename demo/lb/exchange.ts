import { performance } from 'node:perf_hooks';
import type { RawHeaders } from '../../src/proxy/headers.js';

export { pairs, type RawHeaders } from '../../src/proxy/headers.js';

/**
 * How a response body ended, as the client saw it: `cut` when the balancer itself closed the
 * connection mid-body (a drain), `reset` when the replica broke off, `aborted` when the client
 * went away.
 */
export type ExchangeEnd = 'open' | 'complete' | 'cut' | 'reset' | 'aborted';

/** One HTTP exchange as the client saw it through the load balancer. Times are ms since `t0`. */
export interface Exchange {
  startedDateTime: string;
  /** `performance.now()` when the request line arrived; chunk times are relative to it. */
  t0: number;
  request: { method: string; url: string; httpVersion: string; headers: RawHeaders; body: Buffer };
  /** When the request body had fully arrived. */
  sentAt?: number;
  response?: { status: number; statusText: string; httpVersion: string; headers: RawHeaders; at: number };
  /** Each body chunk as forwarded to the client. */
  chunks: { t: number; bytes: Buffer }[];
  end: ExchangeEnd;
  endedAt?: number;
}

/** Exchanges one recording keeps at most; a fixture run needs a few dozen. */
export const MAX_EXCHANGES = 1_000;

export interface ExchangeLog {
  start(request: Exchange['request']): Exchange;
  finish(exchange: Exchange, end: Exclude<ExchangeEnd, 'open'>): void;
  /** Every exchange, in start order. */
  all(): readonly Exchange[];
  /** Exchanges not recorded because the log was full. */
  dropped(): number;
  /** Resolves once no exchange is open (immediately when none is). */
  settled(): Promise<void>;
}

export function createExchangeLog(): ExchangeLog {
  const exchanges: Exchange[] = [];
  const waiters = new Set<() => void>();
  let open = 0;
  let dropped = 0;

  return {
    start(request) {
      const exchange: Exchange = {
        startedDateTime: new Date().toISOString(),
        t0: performance.now(),
        request,
        chunks: [],
        end: 'open',
      };
      // A dropped exchange is still proxied and closed normally; it is just not kept.
      if (exchanges.length < MAX_EXCHANGES) exchanges.push(exchange);
      else dropped += 1;
      open += 1;
      return exchange;
    },
    finish(exchange, end) {
      if (exchange.end !== 'open') return;
      exchange.end = end;
      exchange.endedAt = since(exchange);
      open -= 1;
      if (open > 0) return;
      for (const wake of waiters) wake();
      waiters.clear();
    },
    all: () => exchanges,
    dropped: () => dropped,
    settled: () => (open === 0 ? Promise.resolve() : new Promise((resolve) => waiters.add(resolve))),
  };
}

/** Milliseconds since the exchange started, with sub-millisecond precision. */
export function since(exchange: Exchange): number {
  return performance.now() - exchange.t0;
}

/** The first value of a header, matched case-insensitively (`name` in lower case). */
export function header(headers: RawHeaders, name: string): string | undefined {
  return headers.find(([key]) => key.toLowerCase() === name)?.[1];
}
