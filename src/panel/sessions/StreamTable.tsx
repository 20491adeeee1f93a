import { effect, useComputed, useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SessionReport } from '../../core/index';
import { useLens } from '../app/lens-context';
import { lowerBound } from '../timeline/bounds';
import type { TimelineData } from '../timeline/marks';
import { EventRows } from './EventRows';
import { StreamHeader } from './StreamHeader';
import { TableHead } from './TableHead';
import { blockWindows, contentHeight, rowTop, ROW_PX, scrollToShow, type Block } from './table-rows';
import { useThrottledSignal } from './use-throttled';

/**
 * How often the rows follow a live stream's new events. The timeline paints every report; the
 * rows are text to read, and rebuilding them for every report was most of the panel's work at
 * 1,000 events/s (bench/live-latency.ts).
 */
export const ROWS_REFRESH_MS = 250;

interface Shown {
  session: SessionReport | null;
  data: TimelineData | null;
}

/** Only new events (the same session and streams, each as long or longer): what may wait for the next refresh. */
function grew(before: Shown, after: Shown): boolean {
  const [a, b] = [before.data, after.data];
  if (before.session?.key !== after.session?.key || before.session?.streams.length !== after.session?.streams.length) return false;
  if (!a || !b || a.origin !== b.origin || a.axis !== b.axis || a.streams.length !== b.streams.length) return false;
  return a.streams.every((s, i) => s.stream === b.streams[i]!.stream && s.count <= b.streams[i]!.count);
}

/**
 * The selected session's streams and their events in one table, like DevTools' network log: a
 * row per stream (what it carries, its status, its end), under it a row per event. One scroll
 * container as tall as the panel allows, with no box nested in another; only the rows in view
 * are elements (table-rows.ts). Up/Down move the selection from row to row.
 */
export function StreamTable() {
  const lens = useLens();
  // The session and its marks together, at most every ROWS_REFRESH_MS while a stream grows: the
  // table reads nothing else that changes with every live report.
  const now = useComputed((): Shown => ({ session: lens.session.value, data: lens.timelineData.value }));
  const { session, data } = useThrottledSignal(now, ROWS_REFRESH_MS, grew);
  const order = lens.tableOrder.value;
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useSignal(400);
  const focusWanted = useRef<{ stream: number; event: number } | null>(null);
  const requests = lens.requests.value;
  const methodOf = useMemo(() => {
    const map = session ? requests.methodsById(session) : new Map<string, string>();
    return (idKey: string) => map.get(idKey);
  }, [session, requests]);

  const filtering = lens.filters.active.value;
  const marksOf = new Map(data?.streams.map((m) => [m.stream, m]));
  // While filtering, a stream with no matching event is left out.
  const streams = (session?.streams ?? []).filter((s) => !filtering || (marksOf.get(s.index)?.count ?? 0) > 0);
  const blocks: Block[] = streams.map((s) => ({ rows: collapsed.has(s.index) ? 0 : (marksOf.get(s.index)?.count ?? 0) }));
  const windows = blockWindows(blocks, scrollTop, viewport.value);
  const latest = useRef({ streams, blocks, marksOf, order });
  latest.current = { streams, blocks, marksOf, order };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => void (viewport.value = Math.round(entry!.contentRect.height) || 400));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  /** What to bring into view once the table shows it (another session renders after the selection). */
  const revealWanted = useRef<{ stream: number; event: number | null } | null>(null);
  /**
   * Scrolls the pane, only if needed, so that event `event` of `stream` (null: its header row) is
   * in view; if the table does not show that stream yet, as soon as it does.
   */
  const reveal = (stream: number, event: number | null) => {
    const el = scroller.current;
    const k = latest.current.streams.findIndex((s) => s.index === stream);
    const row = event === null ? -1 : rowOf(stream, event);
    if (!el || k < 0 || (event !== null && row < 0)) return void (revealWanted.current = { stream, event });
    revealWanted.current = null;
    const top = rowTop(latest.current.blocks, k, row);
    const next = scrollToShow(el.scrollTop, viewport.peek(), top, row < 0 ? ROW_PX * 2 : ROW_PX);
    if (next !== el.scrollTop) el.scrollTop = next;
  };
  /** Where event `event` of `stream` stands among the stream's rows, in the table's order. */
  const rowOf = (stream: number, event: number): number => {
    const { marksOf: m, order: o } = latest.current;
    const marks = m.get(stream);
    if (!marks) return -1;
    const i = lowerBound(marks.event, event, 0, marks.count);
    if (marks.event[i] !== event) return -1;
    return o === 'asc' ? i : marks.count - 1 - i;
  };

  // A selection made anywhere (timeline, findings, keys) scrolls its row into view.
  useEffect(
    () =>
      effect(() => {
        const mark = lens.selection.mark.value;
        const stream = lens.selection.stream.value;
        if (mark) reveal(mark.stream, mark.event);
        else if (stream !== null) reveal(stream, null);
      }),
    [],
  );
  // A session opens on its trouble: the stream of its first bad resume, else of its worst finding.
  useEffect(
    () =>
      effect(() => {
        if (lens.sessionKey.value === null) return;
        const s = lens.session.peek()!;
        const bad = lens.timelineData.peek()?.resumes.find((r) => r.bad)?.stream ?? s.findings[0]?.stream;
        if (scroller.current) scroller.current.scrollTop = 0;
        revealWanted.current = bad === undefined ? null : { stream: bad, event: null };
      }),
    [],
  );
  useEffect(() => {
    const pending = revealWanted.current;
    if (pending) reveal(pending.stream, pending.event);
  });
  useEffect(() => {
    const wanted = focusWanted.current;
    if (!wanted) return;
    const button = scroller.current?.querySelector<HTMLElement>(`[data-stream="${wanted.stream}"] [data-event="${wanted.event}"] button`);
    if (button) (focusWanted.current = null), button.focus();
  });

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const mark = lens.selection.mark.peek();
    if (!mark) return;
    const step = e.key === 'ArrowDown' ? 1 : -1;
    const { streams: shown, blocks: sizes, marksOf: m, order: o } = latest.current;
    let k = shown.findIndex((s) => s.index === mark.stream);
    let row = rowOf(mark.stream, mark.event) + step;
    while (k >= 0 && k < shown.length && (row < 0 || row >= sizes[k]!.rows)) {
      k += step;
      row = step === 1 ? 0 : (sizes[k]?.rows ?? 0) - 1;
    }
    if (k < 0 || k >= shown.length) return;
    const marks = m.get(shown[k]!.index)!;
    const event = marks.event[o === 'asc' ? row : marks.count - 1 - row]!;
    e.preventDefault();
    focusWanted.current = { stream: marks.stream, event };
    lens.selection.selectMark({ stream: marks.stream, event });
  };

  if (!session) return null;
  const toggle = (index: number) => {
    const next = new Set(collapsed);
    if (!next.delete(index)) next.add(index);
    setCollapsed(next);
  };
  return (
    <section class="streams" aria-label="Streams and events">
      <TableHead />
      <div class="table-scroll" ref={scroller} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} onKeyDown={onKeyDown}>
        {filtering && streams.length === 0 ? (
          <p class="table-empty" data-testid="filter-empty">
            No event matches the filters.{' '}
            <button type="button" onClick={() => lens.filters.clear()}>
              Clear filters
            </button>
          </p>
        ) : null}
        <ul class="stream-blocks" style={{ height: `${contentHeight(blocks)}px` }}>
          {streams.map((s, k) => {
            const marks = marksOf.get(s.index);
            const w = windows[k]!;
            return (
              <li key={s.index} class="stream" data-stream={s.index}>
                <StreamHeader session={session} stream={s} marks={marks} expanded={!collapsed.has(s.index)} toggle={() => toggle(s.index)} />
                {marks && blocks[k]!.rows > 0 ? (
                  <EventRows
                    stream={s.index}
                    events={lens.source.value.events(s.index)}
                    marks={marks}
                    from={w.from}
                    to={w.to}
                    count={blocks[k]!.rows}
                    order={order}
                    origin={data!.origin}
                    methodOf={methodOf}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
