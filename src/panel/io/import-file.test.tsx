// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../test/support/mount-panel';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { createAnalyzer, feed, readHar, writeHar } from '../../core/index';
import { importFile } from './import-file';

afterEach(() => cleanup());

/** A HAR of `copies` sessions of the lost-buffer scenario, each under its own session id. */
function harText(copies: number): string {
  const exchanges = Array.from({ length: copies }, (_, i) =>
    scenarios.lostBuffer().map((x) => ({ ...x, headers: x.headers.map((h) => (/mcp-session-id/i.test(h.name) ? { ...h, value: `s-${i}` } : h)), responseHeaders: x.responseHeaders.map((h) => (/mcp-session-id/i.test(h.name) ? { ...h, value: `s-${i}` } : h)) })),
  ).flat();
  return JSON.stringify(writeHar(exchanges, { redact: false }), null, 2);
}

describe('importing a file', () => {
  it('reads it as a stream, shows bytes read while it runs, and gives the report readHar gives', async () => {
    const { lens } = mountPanel();
    const text = harText(40);
    const file = new File([text], 'big.har', { type: 'application/json' });
    const done = importFile(lens.workspace, file);
    const bar = await screen.findByTestId('import-progress-bar');
    expect(Number(bar.getAttribute('max'))).toBe(file.size);
    expect(await done).toBe(true);
    expect(screen.queryByTestId('import-progress')).toBeNull();
    const whole = readHar(text);
    if (!whole.ok) throw new Error(whole.reason);
    const shown = lens.workspace.active.value;
    expect(shown.label).toBe('big.har');
    const expected = createAnalyzer(lens.workspace.options());
    feed(expected, whole.exchanges);
    expect(shown.report.value).toEqual(expected.report());
    expect(shown.report.value!.sessions).toHaveLength(40);
    expect(shown.exchange(0)).toEqual(whole.exchanges[0]);
    await waitFor(() => expect(screen.getByTestId('notice').textContent).toContain('Imported big.har: 40 sessions'));
  });

  it('is analysed again, from the file, when the app-sequence pointers change', async () => {
    const traffic = [
      exchange({ session: 's', body: rpc.call(1), text: sse([{ id: 'a', data: rpc.message({ seq: 1 }) }]), end: 'reset' }),
      exchange({ method: 'GET', session: 's', headers: [{ name: 'Last-Event-ID', value: 'a' }], text: sse([{ id: 'b', data: rpc.message({ seq: 9 }) }, { id: 'c', data: rpc.result(1) }]) }),
    ];
    const { lens } = mountPanel();
    expect(await importFile(lens.workspace, new File([JSON.stringify(writeHar(traffic))], 'p.har'))).toBe(true);
    const shown = lens.workspace.active.value;
    expect((await screen.findByTestId('resume-marker')).dataset.verdict).toBe('unverifiable');
    fireEvent.click(screen.getByTestId('settings-toggle'));
    fireEvent.input(screen.getByTestId('settings-pointers'), { target: { value: '/params/data/seq' } });
    fireEvent.submit(screen.getByTestId('settings'));
    await waitFor(() => expect(screen.getByTestId('resume-marker').dataset.verdict).toBe('gap'));
    expect(lens.workspace.active.value).toBe(shown);
    expect(shown.report.value!.sessions[0]!.resumes[0]!.verdict).toBe('gap');
  });

  it('can be cancelled: nothing is imported and the current capture stays', async () => {
    const { lens } = mountPanel(scenarios.genuine());
    await screen.findByTestId('session-row');
    const done = importFile(lens.workspace, new File([harText(40)], 'cancel.har'));
    fireEvent.click(await screen.findByTestId('import-cancel'));
    expect(await done).toBe(false);
    expect(screen.queryByTestId('import-progress')).toBeNull();
    expect(lens.workspace.sources.value).toHaveLength(1);
    expect(screen.getAllByTestId('session-row')).toHaveLength(1);
  });

  it('closed while its file is read, is read no further and does not come back', async () => {
    const { lens } = mountPanel();
    const done = importFile(lens.workspace, new File([harText(200)], 'closed.har'));
    await waitFor(() => expect(lens.workspace.sources.value).toHaveLength(2));
    const id = lens.workspace.activeId.value;
    lens.workspace.close(id);
    expect(await done).toBe(false);
    expect(lens.workspace.importing.value).toBeNull();
    expect(lens.workspace.sources.value.map((s) => s.id)).not.toContain(id);
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('a file that is not HAR says why', async () => {
    const { lens } = mountPanel();
    expect(await importFile(lens.workspace, new File(['{"log": {"entries": [1, '], 'cut.har'))).toBe(false);
    expect((await screen.findByTestId('notice')).textContent).toContain('Could not import cut.har: not valid JSON');
  });
});
