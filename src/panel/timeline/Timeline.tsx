import { effect, useComputed, useSignal } from '@preact/signals';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { nextFrame } from '../next-frame';
import { minHeightFor } from './layout';
import { MarkList } from './MarkList';
import { createPainter } from './painter';
import { PALETTES } from './palette';
import { ResumeMarkers } from './ResumeMarkers';
import { TimelineControls } from './TimelineControls';
import { useTimelineInput } from './use-timeline-input';

/** Width assumed until the first measurement (and in DOM-only test environments). */
const FALLBACK_WIDTH = 800;
const MIN_HEIGHT = 220;
/** The User Timing measure of each painted frame (bench/paint-observer-browser.ts reads it). */
const PAINT_MEASURE = 'mcp-stream-lens:paint';

/**
 * The two-lane timeline of the selected session: lane 1 the transport ids per stream row, lane 2
 * the application sequence, on one time axis. Drawn on a canvas, one frame per animation frame at
 * most; resume labels and the list of marks are real elements beside it.
 */
export function Timeline() {
  const lens = useLens();
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useSignal(FALLBACK_WIDTH);
  const data = lens.timelineData.value;
  const view = lens.timeline.view.value;
  const size = useComputed(() => ({ width: width.value, height: heightFor(lens.timelineData.value?.rows ?? 1) }));
  const height = size.value.height;
  const input = useTimelineInput(lens, size);

  useLayoutEffect(() => {
    const el = wrap.current!;
    if (typeof ResizeObserver === 'undefined') return void (width.value = el.clientWidth || FALLBACK_WIDTH);
    // The width from the observer's entries, which the browser measured in its own layout pass.
    // Reading clientWidth forces a layout of the whole panel there and then: while a session's
    // views first fill in, that was 90 ms of the panel's first second.
    const observer = new ResizeObserver(([entry]) => void (width.value = Math.round(entry!.contentRect.width) || FALLBACK_WIDTH));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const paint = createPainter(canvas.current!);
    let cancel = () => {};
    let painted = 0;
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
        paint({ ...frame, data: frame.data, view: frame.view });
        // A handshake for browser tests: a frame with data is on the canvas.
        canvas.current?.setAttribute('data-painted', String(++painted));
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
  const summary = data
    ? `${data.total} events on ${data.streams.length} streams, ${data.resumes.length} resume boundaries${bad > 0 ? `, ${bad} where the sequences stop advancing together` : ''}.`
    : 'No session selected.';
  return (
    <section class="timeline" data-testid="timeline" aria-label="Timeline">
      <TimelineControls />
      <div class="timeline-canvas" ref={wrap} style={{ height: `${height}px` }}>
        <canvas
          ref={canvas}
          tabIndex={0}
          role="application"
          aria-roledescription="timeline"
          aria-label={`Two-lane timeline. ${summary} Arrow keys step from event to event, plus and minus zoom, F fits the session, Shift+arrows pan.`}
          style={{ width: `${width.value}px`, height: `${height}px` }}
          onPointerDown={input.onPointerDown}
          onPointerMove={input.onPointerMove}
          onPointerUp={input.onPointerUp}
          onWheel={input.onWheel}
          onKeyDown={input.onKeyDown}
        />
        {data && view ? <ResumeMarkers data={data} view={view} width={width.value} /> : null}
      </div>
      {data && view ? <MarkList data={data} view={view} /> : null}
      <SelectionAnnouncer />
    </section>
  );
}

const heightFor = (rows: number): number => Math.max(MIN_HEIGHT, minHeightFor(rows));

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
