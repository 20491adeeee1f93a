// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../test/support/mount-panel';
import { scenarios } from '../../../test/support/scenarios';

afterEach(() => cleanup());

const options = (testId: string) => [...screen.getByTestId(testId).querySelectorAll('option')].map((o) => o.textContent!.trim());
const count = () => screen.getByTestId('filter-count');

describe('the filters', () => {
  it('offer every method seen, the requests\' included, and name every stream by what it carries', async () => {
    mountPanel(scenarios.lostBuffer());
    await screen.findAllByTestId('event-row');
    expect(options('filter-method')).toEqual(['all', 'initialize', 'notifications/progress', 'tools/call']);
    expect(options('filter-stream')).toEqual(['all', '#0 initialize · id 0', '#1 tools/call long_task · id 1', '#2 resume of #1']);
  });

  it('a request\'s method finds the results that answer it', async () => {
    mountPanel(scenarios.lostBuffer());
    await screen.findAllByTestId('event-row');
    fireEvent.change(screen.getByTestId('filter-method'), { target: { value: 'tools/call' } });
    await waitFor(() => expect(screen.getAllByTestId('event-row').map((r) => r.querySelector('.col-what')!.textContent)).toEqual(['result · tools/call']));
    fireEvent.change(screen.getByTestId('filter-method'), { target: { value: 'initialize' } });
    await waitFor(() => expect(screen.getAllByTestId('event-row').map((r) => r.querySelector('.col-what')!.textContent)).toEqual(['result · initialize']));
  });

  it('say how many events they show, and what to do when none', async () => {
    const { lens } = mountPanel(scenarios.lostBuffer());
    await screen.findAllByTestId('event-row');
    const total = Number(count().dataset.total);
    expect(count().textContent).toBe(`${total} events`);
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: 'end_turn' } });
    await waitFor(() => expect(count().textContent).toBe(`1 of ${total} events shown`));
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: 'nothing has this' } });
    await waitFor(() => expect(count().textContent).toBe(`0 of ${total} events shown`));
    expect(screen.getByTestId('timeline-empty').textContent).toContain('No event matches');
    fireEvent.click(screen.getByTestId('filter-empty').querySelector('button')!);
    await waitFor(() => expect(lens.filters.active.value).toBe(false));
    expect(count().textContent).toBe(`${total} events`);
  });
});
