// @vitest-environment happy-dom
import { signal } from '@preact/signals';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../test/support/mount-panel';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { analyze, createAnalyzer, feed } from '../../core/index';
import type { CaptureSource } from '../model/capture-source';
import { HEAD_PX, OVERSCAN_ROWS, ROW_PX } from './table-rows';

afterEach(() => cleanup());

/** One tools/call stream of `count` progress events, ids e0..e<count-1>, and its result. */
const oneStream = (count: number) => [
  exchange({ session: 's', body: rpc.call(1), text: sse([...Array.from({ length: count - 1 }, (_, i) => ({ id: `e${i}`, data: rpc.progress('tok-1', i + 1, i + 1) })), { id: `e${count - 1}`, data: rpc.result(1, count) }]) }),
];
const shownIds = () => screen.queryAllByTestId('event-row').map((r) => r.dataset.id);
const pane = () => document.querySelector<HTMLElement>('.table-scroll')!;

describe('the streams table', () => {
  it('renders the rows in view of a long stream, stands padding for the rest, and brings in the last by scrolling', async () => {
    const { lens } = mountPanel(oneStream(300));
    await screen.findAllByTestId('event-row');
    // The pane is 400 px until measured (no layout here): its rows and a few either side.
    expect(shownIds().length).toBe(Math.ceil((400 + OVERSCAN_ROWS * ROW_PX - HEAD_PX) / ROW_PX));
    const list = document.querySelector<HTMLElement>('.events')!;
    expect(parseFloat(list.style.paddingTop) + parseFloat(list.style.paddingBottom) + shownIds().length * ROW_PX).toBe(300 * ROW_PX);
    // One scroll container for the whole table: the event list itself is not a box of its own.
    expect(list.style.maxHeight).toBe('');
    pane().scrollTop = HEAD_PX + 300 * ROW_PX - 400;
    fireEvent.scroll(pane());
    await waitFor(() => expect(shownIds().at(-1)).toBe('e299'));
    const last = screen.getAllByTestId('event-row').at(-1)!;
    fireEvent.click(last.querySelector('button')!);
    expect(lens.selection.mark.value).toEqual({ stream: 0, event: 299 });
    await waitFor(() => expect(last.querySelector('button')!.getAttribute('aria-pressed')).toBe('true'));
  });

  it('shows a 14-event stream whole, result row included, with the columns of an event table', async () => {
    mountPanel(oneStream(14));
    await waitFor(() => expect(shownIds()).toHaveLength(14));
    const head = document.querySelector('.table-head')!;
    expect([...head.children].map((c) => c.textContent!.trim())).toEqual(['id', 'event', 'method / role', 'app_seq', 'time ↑', 'Δ', 'data']);
    const result = screen.getAllByTestId('event-row').at(-1)!;
    expect(result.querySelector('.col-what')!.textContent).toBe('result · tools/call');
    const progress = screen.getAllByTestId('event-row')[2]!;
    expect(progress.querySelector('.col-what')!.textContent).toBe('notifications/progress');
    expect(progress.querySelector('.col-seq')!.textContent).toBe('3');
    expect(progress.querySelector('.col-time')!.textContent).toMatch(/^\+\d+(\.\d)? ms$/);
    expect(progress.querySelector('.col-delta')!.textContent).toBe('+0.0 ms');
    expect(screen.getByTestId('stream-label').textContent).toBe('tools/call long_task · id 1');
  });

  it('shows ids whole in their tooltip and with the middle left out in the cell', async () => {
    const id = '1c28c03c-ab7e-424f-96e0-3145dfcf1e0a_1796092495938_fwqca0gk';
    mountPanel([exchange({ session: 's', body: rpc.call(1), text: sse([{ id, data: rpc.progress('tok-1', 1, 1) }]) })]);
    const cell = (await screen.findByTestId('event-row')).querySelector('.col-id')!;
    expect(cell.getAttribute('title')).toBe(id);
    expect(cell.textContent).toBe('1c28c03c-a…8_fwqca0gk');
  });

  it('sorts by time, newest first and back', async () => {
    mountPanel(oneStream(5));
    await waitFor(() => expect(shownIds()).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']));
    fireEvent.click(screen.getByTestId('table-sort'));
    await waitFor(() => expect(shownIds()).toEqual(['e4', 'e3', 'e2', 'e1', 'e0']));
    expect(screen.getByTestId('table-sort').dataset.order).toBe('desc');
    fireEvent.click(screen.getByTestId('table-sort'));
    await waitFor(() => expect(shownIds()[0]).toBe('e0'));
  });

  it('colours the rows an error points at, and only those', async () => {
    mountPanel(scenarios.lostBuffer());
    await screen.findAllByTestId('event-row');
    const red = screen.getAllByTestId('event-row').filter((r) => r.dataset.error === 'true');
    // The invented event after the resume, and the last one delivered before it (the desync's ends).
    expect(red.map((r) => r.dataset.id)).toEqual(['stream1_1700000000017_r17', 'stream1_1700000000018_r18']);
    expect(red.every((r) => r.querySelector('button')!.className.includes('event-error'))).toBe(true);
  });

  it('moves the selection from row to row with Up and Down, across streams', async () => {
    const { lens } = mountPanel(scenarios.genuine());
    await screen.findAllByTestId('event-row');
    const first = screen.getAllByTestId('event-row')[0]!.querySelector('button')!;
    fireEvent.click(first);
    const start = lens.selection.mark.value!;
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    await waitFor(() => expect(lens.selection.mark.value).toEqual({ stream: start.stream, event: start.event + 1 }));
    fireEvent.keyDown(first, { key: 'ArrowUp' });
    await waitFor(() => expect(lens.selection.mark.value).toEqual(start));
  });

  it('says "body not captured" for a stream whose body the recorder did not keep', async () => {
    const exchanges = scenarios.genuine();
    const analyzer = createAnalyzer();
    feed(analyzer, exchanges);
    const report = analyze(exchanges);
    report.sessions[0]!.streams[2] = { ...report.sessions[0]!.streams[2]!, events: 0, body: 'absent' };
    const source: CaptureSource = { id: 'stub', kind: 'imported', label: 'stub.har', report: signal(report), events: (s) => analyzer.events(s), exchange: (s) => exchanges[s], reanalyse: () => undefined };
    const { lens } = mountPanel([]);
    lens.workspace.sources.value = [...lens.workspace.sources.value, source];
    lens.workspace.activate('stub');
    const row = (await screen.findAllByTestId('stream-row')).find((r) => r.dataset.index === '2')!;
    expect(row.dataset.body).toBe('absent');
    expect(within(row).getByText('body not captured')).toBeTruthy();
  });

  it('says who captured each stream: the debugger, the browser\'s network filter, or nothing for the tap', async () => {
    const exchanges = scenarios.genuine();
    const analyzer = createAnalyzer();
    feed(analyzer, exchanges);
    const report = analyze(exchanges);
    const by = ['debugger', 'network-filter'] as const;
    const source: CaptureSource = {
      id: 'stub',
      kind: 'live',
      label: 'stub',
      report: signal(report),
      events: (s) => analyzer.events(s),
      exchange: (s) => exchanges[s],
      provenance: (s) => ({ source: by[s] ?? 'tap' }),
      reanalyse: () => undefined,
    };
    const { lens } = mountPanel([]);
    lens.workspace.sources.value = [...lens.workspace.sources.value, source];
    lens.workspace.activate('stub');
    const rows = await screen.findAllByTestId('stream-row');
    const said = (index: number) => {
      const row = rows.find((r) => r.dataset.index === String(index));
      if (!row) throw new Error(`no row #${index} among ${rows.map((r) => r.dataset.index).join(', ')}`);
      return [row.dataset.source, [...row.querySelectorAll('.muted')].map((m) => m.textContent)];
    };
    expect(said(0)).toEqual(['debugger', ['by the debugger']]);
    expect(said(1)).toEqual(['network-filter', ["by the browser's network filter"]]);
    expect(said(2)).toEqual(['tap', []]);
  });
});
