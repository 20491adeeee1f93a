import type { IncomingMessage, ServerResponse } from 'node:http';

/** Calls remembered at most; the oldest is forgotten first (its waiters are let go). */
export const MAX_RECEIPT_CALLS = 256;

/**
 * What a demo page says its client has read: per call (its `idempotencyKey`), the highest
 * `progress` the app has seen.
 *
 * Why the balancer asks. A browser drops the body bytes a page had not read yet when the body
 * fails (a stream's error discards its queue). So a drain that cuts while the page is busy (a
 * first run, a loaded machine) takes with it events the network delivered: the client resumes
 * from an older id than the recording shows, or, having read no id at all, does not resume. The
 * page's own word is the only signal of what it read, so the cut waits for it.
 */
export interface ReadReceipts {
  /** The client of call `key` has read up to `progress`; 0 says it will tell as it reads. */
  note(key: string, progress: number): void;
  /**
   * Resolves once the client of `key` has read `progress`: at once for a call whose client never
   * said it would tell (a Node client, another page), since nothing would ever come.
   */
  read(key: string | undefined, progress: number): Promise<void>;
}

interface Call {
  seen: number;
  waiting: { progress: number; done: () => void }[];
}

export function createReadReceipts(): ReadReceipts {
  const calls = new Map<string, Call>();
  return {
    note(key, progress) {
      const call = calls.get(key) ?? { seen: 0, waiting: [] };
      call.seen = Math.max(call.seen, progress);
      calls.delete(key); // re-insert: Map order is recency order
      calls.set(key, call);
      const due = call.waiting.filter((w) => w.progress <= call.seen);
      call.waiting = call.waiting.filter((w) => w.progress > call.seen);
      for (const w of due) w.done();
      if (calls.size > MAX_RECEIPT_CALLS) {
        const [oldest, forgotten] = calls.entries().next().value!;
        calls.delete(oldest);
        for (const w of forgotten.waiting) w.done();
      }
    },
    read(key, progress) {
      const call = key === undefined ? undefined : calls.get(key);
      if (!call || call.seen >= progress) return Promise.resolve();
      return new Promise((done) => call.waiting.push({ progress, done }));
    },
  };
}

/** The receipt a page posts: `POST /read-receipt?key=K&progress=N` (and `&scenario=S` on the demo site). */
export const RECEIPT_PATH = '/read-receipt';

/**
 * Takes a page's receipt into the receipts `find` names for it (404 when none), and says whether
 * `req` was one. A site serves it outside the balancer's mount: no MCP exchange, and not logged.
 */
export function takeReceipt(req: IncomingMessage, res: ServerResponse, find: (query: URLSearchParams) => ReadReceipts | undefined): boolean {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname !== RECEIPT_PATH || req.method !== 'POST') return false;
  const receipts = find(url.searchParams);
  const key = url.searchParams.get('key');
  const progress = Number(url.searchParams.get('progress'));
  if (!key || !Number.isFinite(progress)) res.writeHead(400).end();
  else if (!receipts) res.writeHead(404).end();
  else {
    receipts.note(key, progress);
    res.writeHead(204).end();
  }
  return true;
}

/** The `progress` of a `notifications/progress` event's data, if that is what it is. */
export function progressOf(data: string): number | undefined {
  try {
    const message = JSON.parse(data) as { method?: unknown; params?: { progress?: unknown } };
    const progress = message?.params?.progress;
    return message?.method === 'notifications/progress' && typeof progress === 'number' && Number.isFinite(progress) ? progress : undefined;
  } catch {
    return undefined;
  }
}
