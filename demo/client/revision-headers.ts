import type { Fetch } from './resume-watch.js';

/**
 * Wraps `fetch` so every request announces `revision` in `MCP-Protocol-Version`, and every POST
 * names its JSON-RPC method in `Mcp-Method`, as a 2026-07-28 (sessionless) client does. The SDK
 * 1.32 client only knows revisions up to 2025-11-25, so the demo adds what it cannot.
 */
export function withRevisionHeaders(base: Fetch, revision: string): Fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('mcp-protocol-version', revision);
    const method = methodOf(init?.body);
    if (method !== undefined) headers.set('mcp-method', method);
    return base(input, { ...init, headers });
  };
}

/** The `method` of a single JSON-RPC message body, if that is what the body is. */
function methodOf(body: RequestInit['body']): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(body);
    const method = typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wraps `fetch` so the client's `initialize` asks for `revision` instead of the SDK's newest.
 * mcp-lite answers a revision it does not know with 2025-03-26, and then refuses the standalone
 * GET of any revision but 2025-06-18; a client asking for 2025-06-18 gets both.
 */
export function askingForRevision(base: Fetch, revision: string): Fetch {
  return (input, init) => {
    if (typeof init?.body !== 'string') return base(input, init);
    let message: unknown;
    try {
      message = JSON.parse(init.body);
    } catch {
      return base(input, init);
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return base(input, init);
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (method !== 'initialize' || typeof params !== 'object' || params === null) return base(input, init);
    return base(input, { ...init, body: JSON.stringify({ ...message, params: { ...params, protocolVersion: revision } }) });
  };
}
