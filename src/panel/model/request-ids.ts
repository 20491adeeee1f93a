/**
 * The JSON-RPC request ids a request body sent, as the analysis keys them (`JSON.stringify`, so
 * `1` and `"1"` stay apart). Bodies that are not JSON-RPC give none.
 */
export function requestIdKeys(body: string | undefined): string[] {
  if (!body) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const keys: string[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (typeof message !== 'object' || message === null) continue;
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') keys.push(JSON.stringify(id));
  }
  return keys;
}
