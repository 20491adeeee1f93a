import { useComputed } from '@preact/signals';
import { useState } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { sessionMethods } from '../model/methods';
import { count as formatCount, plural } from '../text/plural';
import { clip, visibleLine } from '../text/visible';

/**
 * Filters by stream, JSON-RPC method, request id and free text; the timeline and the table
 * follow, and the count says how many events are shown. When the panel is short (docked at the
 * bottom) the stream, method and request id fields fold behind "Filters".
 */
export function FilterBar() {
  const lens = useLens();
  const { filters } = lens;
  const session = lens.session.value;
  const [open, setOpen] = useState(false);
  const methods = useComputed(() => {
    const s = lens.session.value;
    return s ? sessionMethods(s, lens.source.value, lens.requests.value) : [];
  });
  const counts = useComputed(() => {
    const s = lens.session.value;
    const source = lens.source.value;
    const all = s ? s.streams.reduce((n, st) => n + source.events(st.index).length, 0) : 0;
    return { shown: lens.timelineData.value?.total ?? 0, all };
  }).value;
  const active = filters.active.value;
  const value = (e: Event) => (e.currentTarget as HTMLInputElement | HTMLSelectElement).value;
  const label = session ? (index: number) => lens.requests.value.label(session, index) : () => '';
  const extra = [filters.stream.value !== null, filters.method.value !== '', filters.requestId.value.trim() !== ''].filter(Boolean).length;
  return (
    <form class={`filters${open ? ' open' : ''}`} role="search" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
      <button type="button" class="filter-fold" aria-expanded={open} onClick={() => setOpen(!open)}>
        Filters{extra > 0 ? ` (${extra})` : ''} ▾
      </button>
      <span class="filter-fields">
        <label>
          Stream{' '}
          <select data-testid="filter-stream" value={filters.stream.value ?? ''} onChange={(e) => (filters.stream.value = value(e) === '' ? null : Number(value(e)))}>
            <option value="">all</option>
            {session?.streams.map((s) => (
              <option key={s.index} value={s.index}>
                #{s.index} {label(s.index)}
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
          Request id <input data-testid="filter-request-id" size={5} value={filters.requestId.value} onInput={(e) => (filters.requestId.value = value(e))} />
        </label>
      </span>
      <label>
        <span class="sr-only">Search</span>
        <input type="search" data-testid="filter-text" placeholder="Search id, data…" size={14} value={filters.text.value} onInput={(e) => (filters.text.value = value(e))} />
      </label>
      <span class={`filter-count${active && counts.shown === 0 ? ' filter-none' : ''}`} data-testid="filter-count" data-shown={counts.shown} data-total={counts.all}>
        {active ? `${formatCount(counts.shown)} of ${plural(counts.all, 'event')} shown` : plural(counts.all, 'event')}
      </span>
      {active ? (
        <button type="button" onClick={() => filters.clear()}>
          Clear
        </button>
      ) : null}
    </form>
  );
}
