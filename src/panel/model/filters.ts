import { computed, signal } from '@preact/signals';
import type { EventRecord, StreamReport } from '../../core/index';

/** Narrows what the timeline and the stream list show. Empty fields match everything. */
export function createFilters() {
  const stream = signal<number | null>(null);
  const method = signal('');
  const requestId = signal('');
  const text = signal('');
  const active = computed(() => stream.value !== null || method.value !== '' || requestId.value.trim() !== '' || text.value.trim() !== '');
  return {
    stream,
    method,
    requestId,
    text,
    active,
    clear(): void {
      stream.value = null;
      method.value = '';
      requestId.value = '';
      text.value = '';
    },
  };
}

export type Filters = ReturnType<typeof createFilters>;

/** A result or an error: it carries the id of the request it answers, and no method. */
const answers = (record: EventRecord): boolean => (record.role === 'result' || record.role === 'error') && record.idKey !== undefined;

export interface Matcher {
  includeStream(stream: StreamReport): boolean;
  include(stream: StreamReport, record: EventRecord): boolean;
}

/**
 * The filters as predicates. `requestIdsOf` gives the JSON-RPC ids a stream's request sent, so a
 * request id matches the response that carries it and the whole stream that answers it.
 * `methodOfId` gives the method a request id was sent with, so a method matches the results
 * that answer it (a result names no method of its own).
 */
export function matcherOf(
  filters: Filters,
  requestIdsOf: (stream: number) => readonly string[],
  methodOfId: (idKey: string) => string | undefined = () => undefined,
): Matcher | undefined {
  if (!filters.active.value) return undefined;
  const stream = filters.stream.value;
  const method = filters.method.value;
  const id = filters.requestId.value.trim();
  const wanted = id === '' ? null : new Set([id, JSON.stringify(id)]);
  const needle = filters.text.value.trim();
  const pattern = needle === '' ? null : new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  return {
    includeStream: (s) => stream === null || s.index === stream,
    include(s, record) {
      if (method !== '' && record.method !== method && !(answers(record) && methodOfId(record.idKey!) === method)) return false;
      if (wanted && !(record.idKey !== undefined && wanted.has(record.idKey)) && !requestIdsOf(s.index).some((k) => wanted.has(k))) return false;
      if (pattern && !(pattern.test(record.data) || (record.id !== undefined && pattern.test(record.id)) || (record.event !== undefined && pattern.test(record.event)))) {
        return false;
      }
      return true;
    },
  };
}
