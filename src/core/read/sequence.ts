import { isRecord, type RpcMessage } from './jsonrpc';

/**
 * One application-sequence value. `key` names the sequence it belongs to: `app_seq`, a progress
 * token (`progress:"tok"`) or a user pointer (`ptr:/params/data/seq`). Values of different keys
 * are never compared.
 */
export interface SeqValue {
  key: string;
  value: number;
  /** Progress values are only required to increase; app_seq and pointers count by one. */
  kind: 'app_seq' | 'progress' | 'pointer';
}

/** Where {@link sequenceOf} looks for `app_seq` and {@link resumeTokenOf} for `resume_token`, in order. */
export function seqPlaces(name: 'app_seq' | 'resume_token'): string[][] {
  return [[name], ['params', name], ['params', '_meta', name], ['result', '_meta', name]];
}

/** Every place {@link sequenceOf} and {@link resumeTokenOf} read, besides the user's pointers. */
export const SEQUENCE_READS: readonly (readonly string[])[] = [...seqPlaces('app_seq'), ...seqPlaces('resume_token')];

/** The key path of a valid JSON pointer (`/a~1b/c` is `a/b`, `c`). */
export function pointerPath(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Extracts a message's application-sequence value: app_seq, else progress, else user pointers. */
export function sequenceOf(message: RpcMessage, pointers: readonly string[]): SeqValue | undefined {
  const value = atSeqPlaces(message.value, 'app_seq', isSeqNumber);
  if (value !== undefined) return { key: 'app_seq', value, kind: 'app_seq' };
  if (message.role === 'progress' && message.progress !== undefined && message.progressToken !== undefined) {
    return { key: `progress:${message.progressToken}`, value: message.progress, kind: 'progress' };
  }
  for (const pointer of pointers) {
    const value = resolvePointer(message.value, pointer);
    if (isSeqNumber(value)) return { key: `ptr:${pointer}`, value, kind: 'pointer' };
  }
  return undefined;
}

/**
 * Where the tool's own counter (and a `resume_token` beside it) may sit, in the order we look
 * (that of {@link seqPlaces}): top level, `params`, `params._meta`, `result._meta`. The field
 * report's servers put it at top level; MCP servers that follow the spec's extension point use
 * `_meta`. Written out rather than walked from a path table: this runs for every event, and the
 * table walk cost more than the rest of the sequence rules together.
 */
function atSeqPlaces<T>(root: Record<string, unknown>, name: 'app_seq' | 'resume_token', accept: (value: unknown) => value is T): T | undefined {
  if (accept(root[name])) return root[name];
  const params = root.params;
  if (isRecord(params)) {
    if (accept(params[name])) return params[name];
    const meta = params._meta;
    if (isRecord(meta) && accept(meta[name])) return meta[name];
  }
  const result = root.result;
  if (isRecord(result)) {
    const meta = result._meta;
    if (isRecord(meta) && accept(meta[name])) return meta[name];
  }
  return undefined;
}

function isSeqNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Is `pointer` a syntactically valid RFC 6901 JSON pointer? */
export function isJsonPointer(pointer: string): boolean {
  return pointer === '' || (pointer.startsWith('/') && !/~[^01]|~$/.test(pointer));
}

/** Resolves an RFC 6901 JSON pointer; undefined when any step is missing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!isJsonPointer(pointer)) return undefined;
  let node = root;
  for (const key of pointerPath(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(key)) return undefined;
      node = node[Number(key)];
    } else if (isRecord(node) && Object.hasOwn(node, key)) {
      node = node[key];
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * A `resume_token` echoed by the server (a hash of its buffer head), where a tool without an
 * application sequence may prove continuity instead. Same places as `app_seq`.
 */
export function resumeTokenOf(message: RpcMessage): string | undefined {
  return atSeqPlaces(message.value, 'resume_token', isToken);
}

function isToken(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
