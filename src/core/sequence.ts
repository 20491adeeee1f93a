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

/**
 * Where the tool's own counter may sit, in the order we look. The field report's servers put it
 * at top level; MCP servers that follow the spec's extension point use `_meta`.
 */
const APP_SEQ_PATHS: readonly (readonly string[])[] = [
  ['app_seq'],
  ['params', 'app_seq'],
  ['params', '_meta', 'app_seq'],
  ['result', '_meta', 'app_seq'],
];

/** Extracts a message's application-sequence value: app_seq, else progress, else user pointers. */
export function sequenceOf(message: RpcMessage, pointers: readonly string[]): SeqValue | undefined {
  for (const path of APP_SEQ_PATHS) {
    const value = at(message.value, path);
    if (isSeqNumber(value)) return { key: 'app_seq', value, kind: 'app_seq' };
  }
  if (message.role === 'progress' && message.progress !== undefined && message.progressToken !== undefined) {
    return { key: `progress:${message.progressToken}`, value: message.progress, kind: 'progress' };
  }
  for (const pointer of pointers) {
    const value = resolvePointer(message.value, pointer);
    if (isSeqNumber(value)) return { key: `ptr:${pointer}`, value, kind: 'pointer' };
  }
  return undefined;
}

function isSeqNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
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
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
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
  for (const path of RESUME_TOKEN_PATHS) {
    const value = at(message.value, path);
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

const RESUME_TOKEN_PATHS = APP_SEQ_PATHS.map((path) => [...path.slice(0, -1), 'resume_token']);
