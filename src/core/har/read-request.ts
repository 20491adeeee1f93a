import { isRecord } from '../read/jsonrpc';

/**
 * The request body of a HAR entry as text. Most writers keep it in `postData.text`; chrome-har
 * parses a JSON body into `postData.params` (`[{ name, value }]`, one pair per top-level key,
 * a top-level array's items named `"0"`, `"1"`, ...) and writes no text, so the JSON is put
 * back together from the pairs. mitmproxy and Playwright write both (`params: []`): the text wins.
 */
export function requestBodyOf(postData: Record<string, unknown> | undefined): string | undefined {
  if (!postData) return undefined;
  if (typeof postData.text === 'string') return postData.text;
  const params = postData.params;
  if (!Array.isArray(params) || params.length === 0) return undefined;
  const pairs = params.filter((p): p is { name: string; value: unknown } => isRecord(p) && typeof p.name === 'string' && 'value' in p);
  if (pairs.length !== params.length) return undefined;
  const mimeType = typeof postData.mimeType === 'string' ? postData.mimeType.toLowerCase() : '';
  if (mimeType.includes('x-www-form-urlencoded')) {
    return pairs.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.value))}`).join('&');
  }
  // A batch: every name is its index.
  if (pairs.every((p, i) => p.name === String(i))) return JSON.stringify(pairs.map((p) => p.value));
  // A repeated name was a top-level array (chrome-har writes one pair per item).
  // No prototype: a hostile name such as "__proto__" stays a plain key.
  const object: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const { name, value } of pairs) {
    if (!Object.hasOwn(object, name)) object[name] = value;
    else object[name] = Array.isArray(object[name]) ? [...(object[name] as unknown[]), value] : [object[name], value];
  }
  return JSON.stringify(object);
}
