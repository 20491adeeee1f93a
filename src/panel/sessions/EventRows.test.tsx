// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { LensApp } from '../app/LensApp';
import { createLens } from '../app/create-lens';
import { createMemoryAdapter } from '../host/memory-adapter';
import { MAX_EVENT_ROWS } from './EventRows';
import { LIST_PX, ROW_PX } from './row-window';

afterEach(() => cleanup());

/** One stream of `count` progress events, ids e1..e<count>. */
function mountStream(count: number) {
  const memory = createMemoryAdapter();
  const lens = createLens(memory.adapter);
  lens.start();
  const blocks = Array.from({ length: count }, (_, i) => ({ id: `e${i}`, data: rpc.progress('tok-1', i) }));
  memory.replay.replayExchanges([exchange({ session: 's', body: rpc.call(1), text: sse(blocks) })]);
  render(<LensApp lens={lens} />);
  return lens;
}

const shownIds = () => screen.queryAllByTestId('event-row').map((r) => r.dataset.id);
const list = () => screen.getAllByTestId('event-row')[0]!.closest('ol')!;

describe('event rows', () => {
  it('renders the rows in view of the latest events, with room for the rest', async () => {
    mountStream(300);
    await screen.findAllByTestId('event-row');
    const first = 300 - MAX_EVENT_ROWS;
    expect(list().textContent).toContain(`${first} earlier events: see the timeline`);
    const ids = shownIds();
    expect(ids[0]).toBe(`e${first}`);
    // A window, not all 200: what scrolls into view is rendered when it does.
    expect(ids.length).toBeGreaterThanOrEqual(Math.ceil(LIST_PX / ROW_PX));
    expect(ids.length).toBeLessThan(30);
    // The note and the rendered rows plus the padding are as tall as all 201 rows.
    const el = list();
    expect(parseFloat(el.style.paddingTop)).toBe(0);
    expect(parseFloat(el.style.paddingBottom) + (1 + ids.length) * ROW_PX).toBe((1 + MAX_EVENT_ROWS) * ROW_PX);
    expect(screen.getAllByTestId('event-row')[0]!.getAttribute('aria-setsize')).toBe(String(MAX_EVENT_ROWS));
  });

  it('brings every one of the latest events into the list by scrolling, and selects what is clicked', async () => {
    const lens = mountStream(300);
    await screen.findAllByTestId('event-row');
    const el = list();
    el.scrollTop = (1 + MAX_EVENT_ROWS) * ROW_PX - LIST_PX;
    fireEvent.scroll(el);
    await waitFor(() => expect(shownIds().at(-1)).toBe('e299'));
    expect(el.textContent).not.toContain('earlier events');
    expect(parseFloat(el.style.paddingBottom)).toBe(0);
    expect(parseFloat(el.style.paddingTop)).toBeGreaterThan(0);
    const last = screen.getAllByTestId('event-row').at(-1)!;
    expect(last.getAttribute('aria-posinset')).toBe(String(MAX_EVENT_ROWS));
    fireEvent.click(last.querySelector('button')!);
    expect(lens.selection.mark.value).toEqual({ stream: 0, event: 299 });
    await waitFor(() => expect(last.querySelector('button')!.getAttribute('aria-pressed')).toBe('true'));
  });

  it('renders a short stream whole, with no note and no padding', async () => {
    mountStream(4);
    await waitFor(() => expect(shownIds()).toEqual(['e0', 'e1', 'e2', 'e3']));
    expect(list().textContent).not.toContain('earlier events');
    expect(parseFloat(list().style.paddingBottom)).toBe(0);
  });
});
