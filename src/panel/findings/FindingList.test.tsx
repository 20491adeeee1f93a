// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../test/support/mount-panel';
import { scenarios } from '../../../test/support/scenarios';
import { FINDINGS } from '../../core/index';
import { evidenceSentence } from './finding-groups';

afterEach(() => cleanup());

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the findings', () => {
  it('teach once: one sentence of evidence, one line for the client and one for the server, from the findings table', async () => {
    mountPanel(scenarios.lostBuffer());
    const card = (await screen.findAllByTestId('finding')).find((f) => f.dataset.code === 'resume-seq-gap')!;
    const { advice, title } = FINDINGS['resume-seq-gap'];
    expect(card.textContent).toContain(title);
    expect(card.textContent).toContain(`Client ${advice.client}`);
    expect(card.textContent).toContain(`Server ${advice.server}`);
    expect(advice.server).toMatch(/Mcp-Session-Id/);
    expect(occurrences(card.textContent!.toLowerCase(), 're-issue')).toBe(1);
    expect(card.querySelector('.finding-evidence')!.textContent).toBe('app_seq jumped from 17 to 31 across the resume: the buffer was lost and the replica invented the rest.');
  });

  it('group identical findings with a count, each one still reachable', async () => {
    const { lens } = mountPanel(scenarios.duplicate());
    const cards = await screen.findAllByTestId('finding');
    expect(cards.map((c) => [c.dataset.code, c.dataset.count])).toEqual([['duplicate-event-id', '3'], ['resume-seq-regress', '1']]);
    expect(cards[0]!.textContent).toContain('×3');
    const instances = within(cards[0]!.closest('li')!).getAllByTestId('finding-instance');
    expect(instances.map((b) => b.textContent)).toEqual(['#2 · event 0', '#2 · event 1', '#2 · event 2']);
    fireEvent.click(instances[2]!);
    expect(lens.selection.mark.value).toEqual({ stream: 2, event: 2 });
  });

  it('n / p and F8 / Shift+F8 go to the next and previous finding from anywhere but a text field', async () => {
    const { lens } = mountPanel(scenarios.duplicate());
    const main = await screen.findByRole('main');
    const at = () => lens.selection.mark.value;
    fireEvent.keyDown(main, { key: 'n' });
    expect(at()).toEqual({ stream: 2, event: 0 });
    fireEvent.keyDown(main, { key: 'n' });
    fireEvent.keyDown(main, { key: 'F8' });
    expect(at()).toEqual({ stream: 2, event: 2 });
    fireEvent.keyDown(main, { key: 'n' });
    expect(lens.findingCursor.value).toContain('resume-seq-regress');
    // Past the last, round to the first; back again with p and Shift+F8.
    fireEvent.keyDown(main, { key: 'n' });
    expect(at()).toEqual({ stream: 2, event: 0 });
    fireEvent.keyDown(main, { key: 'F8', shiftKey: true });
    expect(lens.findingCursor.value).toContain('resume-seq-regress');
    fireEvent.keyDown(main, { key: 'p' });
    expect(at()).toEqual({ stream: 2, event: 2 });
    await waitFor(() => expect(screen.getAllByTestId('finding')[0]!.getAttribute('aria-current')).toBe('true'));
    fireEvent.keyDown(screen.getByTestId('filter-text'), { key: 'n' });
    expect(at()).toEqual({ stream: 2, event: 2 });
  });

  it('a finding with no event selects its stream: the empty resume shows its request, response and the finding', async () => {
    mountPanel(scenarios.empty());
    const card = (await screen.findAllByTestId('finding')).find((f) => f.dataset.code === 'resume-empty')!;
    expect(card.dataset.severity).toBe('warning');
    fireEvent.click(card);
    const detail = await screen.findByTestId('stream-detail');
    expect(detail.dataset.stream).toBe('2');
    expect(detail.textContent).toContain('resume of #1');
    expect(detail.textContent).toContain('empty');
    expect(detail.textContent).toContain(FINDINGS['resume-empty'].title);
    expect(screen.getAllByTestId('stream-row').find((r) => r.dataset.index === '2')!.className).toContain('selected');
    expect(screen.getByTestId('resume-marker').className).toContain('selected');
  });
});

describe('evidenceSentence', () => {
  it('keeps the first sentence, dots in ids and URLs included', () => {
    expect(evidenceSentence('Event id "a.b" was sent to http://h.example/mcp twice. Drop it.')).toBe('Event id "a.b" was sent to http://h.example/mcp twice.');
    expect(evidenceSentence('No full stop')).toBe('No full stop');
  });
});
