// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../test/support/mount-panel';
import { scenarios } from '../../../test/support/scenarios';
import { layoutOf, rowY } from './layout';

afterEach(() => cleanup());

describe('the timeline', () => {
  it('labels each resume with its arithmetic and says so in data attributes', async () => {
    mountPanel(scenarios.lostBuffer());
    const marker = await screen.findByTestId('resume-marker');
    // From the finding's evidence.
    expect(marker.dataset).toMatchObject({ verdict: 'gap', tone: 'error', lastSeen: '17', expected: '18', got: '31' });
    expect(marker.textContent).toBe('200 gap · 17 → expected 18 · got 31');
    cleanup();
    mountPanel(scenarios.genuine());
    const genuine = await screen.findByTestId('resume-marker');
    // No finding, so no rule's expectation: the values drawn on either side.
    expect(genuine.dataset).toMatchObject({ verdict: 'genuine', tone: 'ok', lastSeen: '17', got: '18' });
    expect(genuine.dataset.expected).toBeUndefined();
    expect(genuine.textContent).toBe('200 genuine · 17 → 18');
  });

  it('opens a burst on event order, and the toggle switches the axis both ways', async () => {
    const { lens } = mountPanel(scenarios.genuine());
    await screen.findByTestId('axis-toggle');
    // Every body of these scenarios arrived in one chunk: one instant per stream.
    expect(screen.getByTestId('axis-toggle').dataset).toMatchObject({ axis: 'order', auto: 'true' });
    expect(screen.getByTestId('timeline').dataset.axis).toBe('order');
    fireEvent.click(screen.getByRole('button', { name: 'Time' }));
    await waitFor(() => expect(screen.getByTestId('timeline').dataset.axis).toBe('time'));
    expect(lens.axisChoice.value).toBe('time');
    fireEvent.click(screen.getByRole('button', { name: 'Event order' }));
    await waitFor(() => expect(screen.getByTestId('timeline').dataset.axis).toBe('order'));
  });

  it('shows the id, value, time and stream of the mark under the pointer', async () => {
    const { lens } = mountPanel(scenarios.lostBuffer());
    await screen.findByTestId('resume-marker');
    const data = lens.timelineData.value!;
    const view = lens.timeline.view.value!;
    const s = data.streams.find((x) => x.stream === 2)!;
    const layout = layoutOf(800, 220, data.rows, 1);
    const canvas = screen.getByTestId('timeline').querySelector('canvas')!;
    const x = layout.plotLeft + ((s.time[0]! - view.start) / view.span) * layout.plotWidth;
    fireEvent.pointerMove(canvas, { clientX: x, clientY: rowY(layout, s.row) });
    const tip = await screen.findByTestId('timeline-tooltip');
    expect(tip.dataset).toMatchObject({ stream: '2', event: '0' });
    expect(tip.textContent).toContain('id stream1_1700000000018_r18');
    expect(tip.textContent).toContain('app_seq 31');
    expect(tip.textContent).toMatch(/\+\d+\.\d ms/);
    expect(tip.textContent).toContain('#2 resume of #1');
    fireEvent.pointerLeave(canvas);
    await waitFor(() => expect(screen.queryByTestId('timeline-tooltip')).toBeNull());
  });
});
