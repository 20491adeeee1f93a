import { RECEIPT_PATH } from '../lb/read-receipts.js';

/**
 * A page's side of the demo balancer's read receipts (demo/lb/read-receipts.ts): a fresh
 * idempotency key for the call, and `tell(progress)`, which says how far the app has read.
 * `await tell(0)` before the call, so the balancer knows to wait for the rest. `extra` goes in
 * every receipt's query (the demo site routes by `scenario`).
 */
export function readReceipts(extra: Record<string, string> = {}): { key: string; tell(progress: number): Promise<void> } {
  const key = globalThis.crypto.randomUUID();
  return {
    key,
    tell: (progress) =>
      fetch(`${RECEIPT_PATH}?${new URLSearchParams({ ...extra, key, progress: String(progress) })}`, { method: 'POST' }).then(
        () => undefined,
        () => undefined, // a lost receipt only lets the drain cut sooner, as it did before receipts
      ),
  };
}
