import { effect, useComputed, useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { nextFrame } from '../next-frame';
import { bandRowsFor, layoutOf, minHeightFor } from './layout';
import { MarkList } from './MarkList';
import { MarkTooltip, type Hover } from './MarkTooltip';
import { createPainter } from './painter';
import { PALETTES } from './palette';
import { ResumeMarkers } from './ResumeMarkers';
import { useTimelineInput } from './use-timeline-input';

/** Width assumed until the first measurement (and in DOM-only test environments). */
const FALLBACK_WIDTH = 800;
/** The User Timing measure of each painted frame (bench/paint-observer-browser.ts reads it). */
const PAINT_MEASURE = 'mcp-stream-lens:paint';

/**
 * The two-lane timeline of the selected session: lane 1 the transport ids per stream row, lane 2
 * the application sequence with its value scale, on one x axis (time, or event order). Drawn on a
 * canvas, one frame per animation frame at most; resume labels, the tooltip and the list of marks
 * are real elements beside it.
 */
export function Timeline() {
  const lens = useLens();
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const measured = useSignal({ width: FALLBACK_WIDTH, height: 0 });
  const [hover, setHover] = useState<Hover | null>(null);
  const data = lens.timelineData.value;
  const view = lens.timeline.view.value;
  const rows = data?.rows ?? 1;
  const bandRows = bandRowsFor(data?.resumes.length ?? 0);
  const minHeight = minHeightFor(rows, bandRows);
  // CSS sizes the canvas box (as tall as the panel allows, never shorter than its lanes need).
  const size = useComputed(() => {
    const d = lens.timelineData.value;
    const band = bandRowsFor(d?.resumes.length ?? 0);
    return { width: measured.value.width, height: Math.max(minHeightFor(d?.rows ?? 1, band), measured.value.height), bandRows: band };
  });
  const layout = layoutOf(size.value.width, size.value.height, rows, bandRows);
  const input = useTimelineInput(lens, size, setHover);

  useLayoutEffect(() => {
    const el = wrap.current!;
    if (typeof ResizeObserver === 'undefined') return void (measured.value = { width: el.clientWidth || FALLBACK_WIDTH, height: 0 });
    // The size from the observer's entries, which the browser measured in its own layout pass.
    // Reading clientWidth forces a layout of the whole panel there and then: while a session's
    // views first fill in, that was most of the panel's first second.
    const observer = new ResizeObserver(([entry]) => {
      const box = entry!.contentRect;
      measured.value = { width: Math.round(box.width) || FALLBACK_WIDTH, height: Math.round(box.height) };
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => effect(() => void (lens.plotWidth.value = layoutOf(size.value.width, 0, 1).plotWidth)), []);

  useEffect(() => {
    const paint = createPainter(canvas.current!);
    let cancel = () => {};
    let painted = 0;
    let boxes = '';
    const stop = effect(() => {
      const frame = {
        data: lens.timelineData.value,
        view: lens.timeline.view.value,
        ...size.value,
        palette: PALETTES[lens.theme.value],
        selected: lens.selection.mark.value,
        idOf: lens.idOf,
      };
      // In the frame the change came in, when a frame's work made it (a live report's rebuild).
      cancel();
      cancel = nextFrame(() => {
        if (!frame.data || !frame.view) return;
        const start = performance.now();
        const { text } = paint({ ...frame, data: frame.data, view: frame.view });
        const el = canvas.current;
        // Handshakes for browser tests: a frame with data is on the canvas, and where its text stands.
        el?.setAttribute('data-painted', String(++painted));
        const next = text.map((b) => `${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.w)},${Math.round(b.h)}`).join(' ');
        if (el && next !== boxes) el.setAttribute('data-text-boxes', (boxes = next));
        // For the benchmarks (bench/live-latency.ts, bench/timeline-frame.ts): when a frame drew how
        // many events, read by a PerformanceObserver. Only the newest entry stays buffered, so a
        // panel left open for hours holds one entry, not hours of them.
        performance.clearMeasures(PAINT_MEASURE);
        performance.measure(PAINT_MEASURE, { start, detail: { events: frame.data.total } });
      });
    });
    return () => {
      stop();
      cancel();
    };
  }, []);

  const bad = data?.resumes.filter((r) => r.bad).length ?? 0;
  // No event count: the label would change with every live event, for a screen reader to re-read.
  const summary = data
    ? `${data.streams.length} streams, ${data.resumes.length} resume boundaries${bad > 0 ? `, ${bad} where the sequences stop advancing together` : ''}.`
    : 'No session selected.';
  const nothing = data !== null && data.total === 0 && lens.filters.active.value;
  return (
    <section class="timeline" data-testid="timeline" data-axis={data?.axis} aria-label="Timeline">
      <div class="timeline-canvas" ref={wrap} style={{ minHeight: `${minHeight}px` }}>
        <canvas
          ref={canvas}
          tabIndex={0}
          role="application"
          aria-roledescription="timeline"
          aria-label={`Two-lane timeline. ${summary} Arrow keys step from event to event, plus and minus zoom, F fits the session, Shift+arrows pan.`}
          style={{ width: `${size.value.width}px`, height: `${size.value.height}px` }}
          onPointerDown={input.onPointerDown}
          onPointerMove={input.onPointerMove}
          onPointerUp={input.onPointerUp}
          onPointerLeave={input.onPointerLeave}
          onWheel={input.onWheel}
          onKeyDown={input.onKeyDown}
        />
        {data && view ? <ResumeMarkers data={data} view={view} layout={layout} /> : null}
        {nothing ? (
          <p class="timeline-empty" data-testid="timeline-empty">
            No event matches the filters.
          </p>
        ) : null}
        {hover ? <MarkTooltip hover={hover} width={size.value.width} height={size.value.height} /> : null}
      </div>
      {data && view ? <MarkList data={data} view={view} /> : null}
      <SelectionAnnouncer />
    </section>
  );
}

/** Tells screen readers which event the arrow keys landed on. */
function SelectionAnnouncer() {
  const lens = useLens();
  const mark = lens.selection.mark.value;
  const record = mark ? lens.source.value.events(mark.stream).get(mark.event) : undefined;
  const text = mark && record
    ? `Event ${mark.event} of stream #${mark.stream}, ${record.role}${record.seq ? `, ${record.seq.key} ${record.seq.value}` : ''}`
    : '';
  return (
    <p class="sr-only" aria-live="polite" data-testid="timeline-announcer">
      {text}
    </p>
  );
}
