import { MAX_ENDPOINT_HOLD_BYTES } from './caps';
import { createSseBoundaries } from './sse-boundaries';
import type { Target } from './targets';

/**
 * The legacy HTTP+SSE transport's GET stream opens with an `endpoint` event whose data is the URL
 * to POST to. Behind a proxy that URL names the target, so the client would bypass the proxy (or
 * miss its path prefix): the proxy rewrites it to its own address. Only the first event is
 * looked at; it is held until complete, up to {@link MAX_ENDPOINT_HOLD_BYTES}, then everything
 * passes unchanged.
 */
export interface EndpointRewriter {
  /** The bytes to send for `chunk` now (possibly none while the first event is incomplete). */
  push(chunk: Buffer): Buffer;
  /** Whatever is still held, at the body's end. */
  flush(): Buffer;
  /** `rewritten`, `not-endpoint`, `gave-up` (over the cap) or `pending`. */
  readonly outcome: 'pending' | 'rewritten' | 'not-endpoint' | 'gave-up';
}

export function createEndpointRewriter(map: (data: string) => string): EndpointRewriter {
  const boundaries = createSseBoundaries();
  let held: Buffer[] = [];
  let heldBytes = 0;
  let outcome: EndpointRewriter['outcome'] = 'pending';
  const release = (): Buffer => {
    const all = Buffer.concat(held);
    held = [];
    heldBytes = 0;
    return all;
  };
  return {
    push(chunk) {
      if (outcome !== 'pending') return chunk;
      const end = boundaries.feed(chunk)[0];
      if (heldBytes + (end ?? chunk.length) > MAX_ENDPOINT_HOLD_BYTES) {
        outcome = 'gave-up';
        held.push(chunk);
        return release();
      }
      held.push(end === undefined ? chunk : chunk.subarray(0, end));
      heldBytes += end ?? chunk.length;
      if (end === undefined) return Buffer.alloc(0);
      // Bytes not rewritten go out exactly as they came, invalid UTF-8 and all.
      const first = release();
      const rewritten = rewriteFirstEvent(first.toString('utf8'), map);
      outcome = rewritten === undefined ? 'not-endpoint' : 'rewritten';
      return Buffer.concat([rewritten === undefined ? first : Buffer.from(rewritten, 'utf8'), chunk.subarray(end)]);
    },
    flush: () => release(),
    get outcome() {
      return outcome;
    },
  };
}

/** The event with its `data:` line mapped, or undefined when it is not an `endpoint` event. */
function rewriteFirstEvent(event: string, map: (data: string) => string): string | undefined {
  const lines = event.split(/(\r\n|\r|\n)/);
  const fields = lines.filter((_, i) => i % 2 === 0);
  if (!fields.some((line) => /^event: ?endpoint$/.test(line))) return undefined;
  return lines.map((line, i) => {
    if (i % 2 === 1 || !line.startsWith('data:')) return line;
    const value = line.slice(line.startsWith('data: ') ? 6 : 5);
    return `data: ${map(value)}`;
  }).join('');
}

/**
 * Maps an endpoint URL the target sent to the one a client of the proxy uses: same path and
 * query, under the target's prefix, on the proxy's origin. A URL on another origin than the
 * target's is left alone (the proxy does not route it).
 */
export function endpointMapper(target: Target, upstreamUrl: string, proxyOrigin: string): (data: string) => string {
  return (data) => {
    let resolved: URL;
    try {
      resolved = new URL(data, upstreamUrl);
    } catch {
      return data;
    }
    if (resolved.origin !== target.url.origin) return data;
    const path = `${target.prefix}${resolved.pathname}${resolved.search}${resolved.hash}`;
    return /^[a-z][a-z0-9+.-]*:/i.test(data) ? `${proxyOrigin}${path}` : path;
  };
}
