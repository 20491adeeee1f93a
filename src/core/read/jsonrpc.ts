/** What a JSON-RPC message is, as far as the analysis cares. */
export type RpcRole = 'request' | 'notification' | 'progress' | 'result' | 'error';

/**
 * One JSON-RPC message with its role. What the rules read of it beyond the role is in the table of
 * message-reads.ts; facts.ts reads it.
 */
export interface RpcMessage {
  role: RpcRole;
  /** The JSON-RPC id as a map key (`JSON.stringify`, so `1` and `"1"` stay apart). */
  idKey?: string;
  method?: string;
  /** The parsed message itself. Not retained by the analysis. */
  value: Record<string, unknown>;
}

/** Why a parsed event is not JSON-RPC, or undefined when it is. */
export type Classification = { messages: RpcMessage[] } | { problem: string };

const PROGRESS = 'notifications/progress';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys JSON-RPC ids and progress tokens so numbers and strings never collide. */
export function keyOf(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? JSON.stringify(value) : undefined;
}

/** Classifies one parsed JSON value: a message or a batch of them. */
export function classify(value: unknown): Classification {
  if (Array.isArray(value)) {
    if (value.length === 0) return { problem: 'an empty JSON-RPC batch' };
    const messages: RpcMessage[] = [];
    for (const item of value) {
      const one = classifyOne(item);
      if (typeof one === 'string') return { problem: `batch item: ${one}` };
      messages.push(one);
    }
    return { messages };
  }
  const one = classifyOne(value);
  return typeof one === 'string' ? { problem: one } : { messages: [one] };
}

function classifyOne(value: unknown): RpcMessage | string {
  if (!isRecord(value)) return 'JSON that is not a JSON-RPC object';
  if (value.jsonrpc !== '2.0') return 'a JSON object without "jsonrpc": "2.0"';
  const idKey = keyOf(value.id);
  if (typeof value.method === 'string') {
    // A progress notification is one only with its params; without them it reports nothing.
    const role = value.method === PROGRESS && isRecord(value.params) ? 'progress' : idKey === undefined ? 'notification' : 'request';
    return idKey === undefined ? { role, method: value.method, value } : { role, idKey, method: value.method, value };
  }
  if (idKey === undefined && value.id !== null) return 'a JSON-RPC response without a usable id';
  const role = 'result' in value ? 'result' : isRecord(value.error) ? 'error' : undefined;
  if (!role) return 'a JSON-RPC object with neither method, result nor error';
  return idKey === undefined ? { role, value } : { role, idKey, value };
}
