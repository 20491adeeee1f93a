import { header, type Header } from '../model';

/** Headers that only MCP traffic carries (any one is enough). */
export const MCP_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'mcp-method'] as const;

/** Revisions that have no sessions and no resumption (the 2026-07-28 stateless design). */
export function isStatelessRevision(revision: string | null | undefined): boolean {
  return typeof revision === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(revision) && revision >= '2026-07-28';
}

export function hasMcpHeader(headers: readonly Header[]): boolean {
  return MCP_HEADERS.some((name) => header(headers, name) !== undefined);
}

/** Longest body parsed to tell JSON-RPC from other JSON: a JSON-RPC request is small. */
const MAX_PARSED_BODY_CHARS = 1024 * 1024;

/**
 * Whether a body is a JSON-RPC 2.0 message or batch at its top level (DESIGN.md section 5): JSON
 * that merely contains JSON-RPC somewhere (a page posting its transcript) is not. It runs on every
 * POST the page makes, so a body that does not start like JSON, or never names `jsonrpc`, is
 * refused without parsing.
 */
export function looksLikeJsonRpc(body: string | undefined): boolean {
  if (!body || body.length > MAX_PARSED_BODY_CHARS || !/^\s*[[{]/.test(body) || !body.includes('"jsonrpc"')) return false;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return false;
  }
  return isJsonRpcValue(value);
}

/** A JSON-RPC 2.0 message, or a non-empty batch of them. */
export function isJsonRpcValue(value: unknown): boolean {
  const one = (item: unknown) => typeof item === 'object' && item !== null && (item as { jsonrpc?: unknown }).jsonrpc === '2.0';
  return Array.isArray(value) ? value.length > 0 && value.every(one) : one(value);
}

/**
 * DESIGN.md section 4: a request is MCP when it carries an MCP header or a JSON-RPC body. A legacy
 * HTTP+SSE GET carries neither; the analysis recognises it later by its `event: endpoint`.
 */
export function isMcpRequest(request: { headers: readonly Header[]; body?: string | undefined }): boolean {
  return hasMcpHeader(request.headers) || looksLikeJsonRpc(request.body);
}

/** The legacy transport's session id, from `?sessionId=` of a URL (relative URLs allowed). */
export function legacySessionId(url: string): string | undefined {
  const query = url.indexOf('?');
  if (query < 0) return undefined;
  for (const part of url.slice(query + 1).split('#')[0]!.split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === 'sessionId') {
      try {
        return decodeURIComponent(part.slice(eq + 1)) || undefined;
      } catch {
        return part.slice(eq + 1) || undefined;
      }
    }
  }
  return undefined;
}

/** `origin + path` of a URL: the grouping key of traffic that has no session. */
export function endpointKey(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)/i.exec(url);
  return `${match?.[1] ?? ''}${match?.[2] || '/'}`;
}
