/** What a JSON-RPC message is, as far as the analysis cares. */
export type RpcRole = 'request' | 'notification' | 'progress' | 'result' | 'error';

/** One classified JSON-RPC message. Only the fields the rules need are kept. */
export interface RpcMessage {
  role: RpcRole;
  /** The JSON-RPC id as a map key (`JSON.stringify`, so `1` and `"1"` stay apart). */
  idKey?: string;
  method?: string;
  /** The progressToken a request asks for, or a progress notification reports on, as a key. */
  progressToken?: string;
  /** A progress notification's `progress` value. */
  progress?: number;
  /** A stop reason such as `end_turn`: the message claims the work is finished. */
  stopReason?: string;
  /** The parsed message itself, for sequence extraction. Not retained by the analysis. */
  value: Record<string, unknown>;
}

/** Why a parsed event is not JSON-RPC, or undefined when it is. */
export type Classification = { messages: RpcMessage[] } | { problem: string };

const PROGRESS = 'notifications/progress';

/**
 * Every place in a message that {@link classify} reads, as key paths. A block template rebuilds
 * only these parts of a payload (see block-template.ts), so a rule that reads a new field must
 * name it here.
 */
export const MESSAGE_READS: readonly (readonly string[])[] = [
  ['jsonrpc'],
  ['id'],
  ['method'],
  ['error'],
  ['params', 'progressToken'],
  ['params', 'progress'],
  ['params', '_meta', 'progressToken'],
  ...stopReasonPlaces('params'),
  ...stopReasonPlaces('result'),
];

/** Where {@link stopReasonOf} looks in a message's `container`, in its order. */
export function stopReasonPlaces(container: 'params' | 'result'): string[][] {
  return [[container, 'stop_reason'], [container, 'stopReason'], [container, 'data', 'stop_reason'], [container, 'data', 'stopReason']];
}
export const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'stop', 'stop_sequence', 'max_tokens', 'endTurn', 'stopSequence', 'maxTokens']);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys JSON-RPC ids and progress tokens so numbers and strings never collide. */
export function keyOf(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  // A stream repeats its progress token on every event: remember the last one.
  if (value === lastKeyed) return lastKey;
  lastKeyed = value;
  return (lastKey = JSON.stringify(value));
}
let lastKeyed: string | number | undefined;
let lastKey = '';

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
  const params = isRecord(value.params) ? value.params : undefined;
  if (typeof value.method === 'string') {
    const message: RpcMessage = { role: idKey === undefined ? 'notification' : 'request', method: value.method, value };
    if (idKey !== undefined) message.idKey = idKey;
    const meta = params && isRecord(params._meta) ? params._meta : undefined;
    if (value.method === PROGRESS && params) {
      message.role = 'progress';
      const token = keyOf(params.progressToken);
      if (token !== undefined) message.progressToken = token;
      if (typeof params.progress === 'number' && Number.isFinite(params.progress)) message.progress = params.progress;
    } else if (meta) {
      const token = keyOf(meta.progressToken);
      if (token !== undefined) message.progressToken = token;
    }
    const stop = stopReasonOf(params);
    if (stop) message.stopReason = stop;
    return message;
  }
  if (idKey === undefined && value.id !== null) return 'a JSON-RPC response without a usable id';
  if ('result' in value) {
    const message: RpcMessage = { role: 'result', value };
    if (idKey !== undefined) message.idKey = idKey;
    const stop = stopReasonOf(value.result);
    if (stop) message.stopReason = stop;
    return message;
  }
  if (isRecord(value.error)) {
    const message: RpcMessage = { role: 'error', value };
    if (idKey !== undefined) message.idKey = idKey;
    return message;
  }
  return 'a JSON-RPC object with neither method, result nor error';
}

/**
 * Finds `stop_reason`/`stopReason` in a result or params object, or in its `data` (where a
 * `notifications/message` carries it): the places agents put their "I am done".
 */
function stopReasonOf(container: unknown): string | undefined {
  if (!isRecord(container)) return undefined;
  return directStopReason(container) ?? (isRecord(container.data) ? directStopReason(container.data) : undefined);
}

function directStopReason(container: Record<string, unknown>): string | undefined {
  const snake = container.stop_reason;
  if (typeof snake === 'string' && STOP_REASONS.has(snake)) return snake;
  const camel = container.stopReason;
  return typeof camel === 'string' && STOP_REASONS.has(camel) ? camel : undefined;
}
