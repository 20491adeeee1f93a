import type { NetworkExchange } from '../shared/messages';
import { mayBeMcp, toNetworkExchange, type HarEntryLike, type NetworkReporter } from './network-exchange';

/** A finished request as `devtools.network.onRequestFinished` gives it (Chrome or Firefox). */
export interface FinishedRequest extends HarEntryLike {
  getContent(callback?: (content: string | null, encoding?: string) => void): unknown;
}

export interface NetworkEvents {
  onRequestFinished: { addListener(fn: (request: FinishedRequest) => void): void };
}

/** Chrome answers through the callback, Firefox through a promise of [content, mimeType]. */
function contentOf(request: FinishedRequest): Promise<string | null> {
  return new Promise((resolve) => {
    const done = (content: unknown, encoding?: unknown) => {
      if (typeof content !== 'string') return resolve(null);
      if (encoding !== 'base64') return resolve(content);
      try {
        resolve(new TextDecoder().decode(Uint8Array.from(atob(content), (c) => c.charCodeAt(0))));
      } catch {
        resolve(null);
      }
    };
    try {
      const result = request.getContent(done) as Promise<[unknown, unknown]> | undefined;
      if (result && typeof result.then === 'function') result.then(([content]) => done(content), () => resolve(null));
    } catch {
      resolve(null);
    }
  });
}

/**
 * Reconciliation: the devtools page hears about every request that finishes while DevTools is
 * open, including those the page tap cannot see (workers, requests started before the tap).
 * MCP ones go to the background; the panel shows a request seen both ways once.
 */
export function watchNetwork(network: NetworkEvents, reporter: NetworkReporter, send: (exchange: NetworkExchange) => void): void {
  const instance = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let next = 0;
  network.onRequestFinished.addListener((request) => {
    if (!mayBeMcp(request)) return; // skip fetching bodies of the page's other traffic
    const id = `${instance}:${next++}`;
    void contentOf(request).then((content) => {
      const exchange = toNetworkExchange(id, request, content, reporter);
      if (exchange) send(exchange);
    });
  });
}
