import { at } from './message-reads';

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

/** The key path of a valid JSON pointer (`/a~1b/c` is `a/b`, `c`). */
export function pointerPath(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Is `pointer` a syntactically valid RFC 6901 JSON pointer? */
export function isJsonPointer(pointer: string): boolean {
  return pointer === '' || (pointer.startsWith('/') && !/~[^01]|~$/.test(pointer));
}

/** Resolves an RFC 6901 JSON pointer; undefined when any step is missing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  return isJsonPointer(pointer) ? at(root, pointerPath(pointer)) : undefined;
}
