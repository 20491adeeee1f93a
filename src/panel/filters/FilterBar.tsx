import { useComputed } from '@preact/signals';
import type { EventTable } from '../../core/index';
import { useLens } from '../app/lens-context';
import { clip, visibleLine } from '../text/visible';

/** Methods offered in the picker at most (a hostile page could invent thousands). */
const MAX_METHODS = 200;

/** Methods seen per events table, and how far it was read: a live refresh reads only new events. */
const methodCache = new WeakMap<EventTable, { read: number; methods: Set<string> }>();

function methodsOf(events: EventTable): ReadonlySet<string> {
  let entry = methodCache.get(events);
  if (!entry) methodCache.set(events, (entry = { read: 0, methods: new Set() }));
  for (; entry.read < events.length && entry.methods.size < MAX_METHODS; entry.read++) {
    const method = events.methodAt(entry.read);
    if (method !== undefined) entry.methods.add(method);
  }
  return entry.methods;
}

/** Filters by stream, JSON-RPC method, request id and free text; the timeline and lists follow. */
export function FilterBar() {
  const lens = useLens();
  const { filters } = lens;
  const session = lens.session.value;
  const methods = useComputed(() => {
    const s = lens.session.value;
    const source = lens.source.value;
    const seen = new Set<string>();
    for (const st of s?.streams ?? []) {
      for (const method of methodsOf(source.events(st.index))) {
        if (seen.size >= MAX_METHODS) break;
        seen.add(method);
      }
    }
    return [...seen].sort();
  });
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  return (
    <form class="filters" role="search" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
      <label>
        Stream{' '}
        <select data-testid="filter-stream" value={filters.stream.value ?? ''} onChange={(e) => (filters.stream.value = value(e) === '' ? null : Number(value(e)))}>
          <option value="">all</option>
          {session?.streams.map((s) => (
            <option key={s.index} value={s.index}>
              #{s.index} {s.method} {s.lastEventId !== null ? '(resume)' : ''}
            </option>
          ))}
        </select>
      </label>
      <label>
        Method{' '}
        <select data-testid="filter-method" value={filters.method.value} onChange={(e) => (filters.method.value = value(e))}>
          <option value="">all</option>
          {methods.value.map((m) => (
            <option key={m} value={m}>
              {visibleLine(clip(m, 80))}
            </option>
          ))}
        </select>
      </label>
      <label>
        Request id <input data-testid="filter-request-id" size={6} value={filters.requestId.value} onInput={(e) => (filters.requestId.value = value(e))} />
      </label>
      <label>
        Search <input type="search" data-testid="filter-text" placeholder="id, data…" value={filters.text.value} onInput={(e) => (filters.text.value = value(e))} />
      </label>
      {filters.active.value ? (
        <button type="button" onClick={() => filters.clear()}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
