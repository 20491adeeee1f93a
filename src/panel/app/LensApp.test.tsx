// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { mountPanel } from '../../../test/support/mount-panel';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { scenarios } from '../../../test/support/scenarios';
import { writeHar, type Exchange } from '../../core/index';

afterEach(() => cleanup());

/** The same traffic under another Mcp-Session-Id. */
const rename = (xs: Exchange[], key: string): Exchange[] =>
  xs.map((x) => ({ ...x, headers: x.headers.map((h) => (/mcp-session-id/i.test(h.name) ? { ...h, value: key } : h)), responseHeaders: x.responseHeaders.map((h) => (/mcp-session-id/i.test(h.name) ? { ...h, value: key } : h)) }));
const selectedKey = () => screen.getAllByTestId('session-row').find((r) => r.getAttribute('aria-selected') === 'true')!.dataset.key;

describe('the panel', () => {
  it('tells a newcomer what to do while there is no MCP traffic', async () => {
    mountPanel();
    const empty = await screen.findByTestId('empty-state');
    expect(empty.textContent).toContain('Reload and capture from start');
    expect(within(empty).getByTestId('import-har-empty')).toBeTruthy();
    expect(screen.getByTestId('dropped-count').textContent).toBe('0');
  });

  it('shows the lost-buffer resume: red gap marker, error badge, finding with the re-issue rule', async () => {
    mountPanel(scenarios.lostBuffer());
    const row = await screen.findByTestId('session-row');
    expect(within(row).getByTestId('error-badge').textContent).toBe(String(row.dataset.errors));
    expect(row.textContent).toContain('streamable-http');
    expect(row.textContent).toContain('2025-11-25');
    const marker = await screen.findByTestId('resume-marker');
    expect(marker.dataset.verdict).toBe('gap');
    expect(marker.className).toContain('resume-bad');
    expect(marker.textContent).toContain('200');
    const finding = screen.getAllByTestId('finding').find((f) => f.dataset.code === 'resume-seq-gap')!;
    expect(finding.dataset.severity).toBe('error');
    expect(finding.textContent).toContain('re-issue the original request as a new idempotent call');
  });

  it('selects the event a finding points at and shows its raw SSE, JSON, role and headers', async () => {
    mountPanel(scenarios.lostBuffer());
    const finding = (await screen.findAllByTestId('finding')).find((f) => f.dataset.code === 'resume-seq-gap')!;
    fireEvent.click(finding);
    const detail = await screen.findByTestId('event-detail');
    expect(detail.dataset.stream).toBe('2');
    expect(detail.textContent).toContain('id: stream1_1700000000018_r18');
    expect(detail.textContent).toContain('"progress": 31');
    expect(detail.querySelector('.role')!.textContent).toBe('progress');
    expect(detail.textContent).toContain('Last-Event-ID');
    expect(detail.textContent).toContain('resume-seq-gap');
  });

  it('copies the raw event and the request as cURL through the adapter', async () => {
    const { memory } = mountPanel(scenarios.lostBuffer());
    fireEvent.click((await screen.findAllByTestId('finding')).find((f) => f.dataset.code === 'resume-seq-gap')!);
    const detail = await screen.findByTestId('event-detail');
    fireEvent.click(within(detail).getByTestId('copy-raw'));
    fireEvent.click(within(detail).getByTestId('copy-curl'));
    await waitFor(() => expect(memory.copies).toHaveLength(2));
    expect(memory.copies[0]).toMatch(/^id: stream1_1700000000018_r18\ndata: \{/);
    expect(memory.copies[1]).toContain("curl -N 'http://127.0.0.1:3000/mcp'");
    expect(memory.copies[1]).toContain("-H 'Last-Event-ID: stream1_1700000000017_r17'");
  });

  it('steps from event to event with the arrow keys on the focused timeline', async () => {
    mountPanel(scenarios.genuine());
    await screen.findByTestId('resume-marker');
    const canvas = screen.getByTestId('timeline').querySelector('canvas')!;
    canvas.focus();
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    expect((await screen.findByTestId('event-detail')).dataset.event).toBe('0');
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByTestId('event-detail').dataset.event).toBe('1'));
    fireEvent.keyDown(canvas, { key: 'End' });
    await waitFor(() => expect(screen.getByTestId('timeline-announcer').textContent).toContain('result'));
  });

  it('a failed import says why and leaves the current capture as it was', async () => {
    const { lens } = mountPanel(scenarios.lostBuffer());
    await screen.findByTestId('session-row');
    expect(lens.workspace.importHar('broken.har', '{"log": ')).toBe(false);
    const notice = await screen.findByTestId('notice');
    expect(notice.dataset.kind).toBe('error');
    expect(notice.textContent).toContain('Could not import broken.har: not valid JSON');
    expect(lens.workspace.importHar('plain.har', JSON.stringify({ log: { entries: [] } }))).toBe(false);
    await waitFor(() => expect(screen.getByTestId('notice').textContent).toContain('none of its 0 entries is MCP traffic'));
    expect(screen.getAllByTestId('session-row')).toHaveLength(1);
    expect(screen.getByTestId('resume-marker').dataset.verdict).toBe('gap');
  });

  it('imports a HAR as its own capture, and exports the session as redacted HAR and the report as JSON', async () => {
    const { lens, memory } = mountPanel();
    const har = writeHar(scenarios.genuine().map((x) => ({ ...x, headers: [...x.headers, { name: 'Authorization', value: 'Bearer secret' }] })), { redact: false });
    expect(lens.workspace.importHar('genuine.har', JSON.stringify(har))).toBe(true);
    expect((await screen.findByTestId('resume-marker')).dataset.verdict).toBe('genuine');
    expect(screen.getByTestId('notice').textContent).toContain('Imported genuine.har');
    fireEvent.click(screen.getByTestId('export-har'));
    fireEvent.click(screen.getByTestId('export-report'));
    const [exported, report] = memory.downloads;
    expect(exported!.name).toBe('mcp-session-redacted-1.har'); // the session id is pseudonymized, in the name too
    expect(exported!.text).not.toContain('session-a');
    expect(exported!.text).not.toContain('Bearer secret');
    expect(JSON.parse(exported!.text).log.entries[2]._sse.length).toBeGreaterThan(0);
    expect(JSON.parse(report!.text)).toMatchObject({ tool: 'mcp-stream-lens', reportVersion: 1, summary: { sessions: 1 } });
    fireEvent.click(screen.getByTestId('export-capture'));
    const capture = memory.downloads[2]!;
    expect(capture.name).toBe('mcp-capture.har');
    expect(JSON.parse(capture.text).log.entries).toHaveLength(har.log.entries.length);
  });

  it('opens on the newest session with the worst finding, until the user picks another', async () => {
    mountPanel([...rename(scenarios.genuine(), 'old-ok'), ...rename(scenarios.lostBuffer(), 'broken'), ...rename(scenarios.genuine(), 'new-ok')]);
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(3));
    const pressed = selectedKey;
    expect(pressed()).toBe('broken');
    expect(screen.getByTestId('resume-marker').dataset.verdict).toBe('gap');
    fireEvent.click(screen.getAllByTestId('session-row').find((r) => r.dataset.key === 'new-ok')!);
    await waitFor(() => expect(pressed()).toBe('new-ok'));
    expect(screen.getByTestId('resume-marker').dataset.verdict).toBe('genuine');
    // Up/Down in the list box move the selection.
    fireEvent.keyDown(screen.getAllByTestId('session-row').find((r) => r.dataset.key === 'new-ok')!, { key: 'ArrowUp' });
    await waitFor(() => expect(pressed()).toBe('broken'));
  });

  it('opens on the session with the worst finding even when it is only a refusal, and badges every session with findings by its worst', async () => {
    // The rejected scenario: the resume is refused (info), and the re-issued call is healthy.
    mountPanel([...rename(scenarios.rejected(), 'refused'), ...rename(scenarios.genuine(), 'healthy')]);
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(2));
    expect(selectedKey()).toBe('refused');
    const marker = screen.getByTestId('resume-marker');
    expect([marker.dataset.verdict, marker.dataset.tone]).toEqual(['rejected', 'info']);
    cleanup();
    mountPanel([...rename(scenarios.rejected(), 'refused'), ...rename(scenarios.unverifiable(), 'unproven'), ...rename(scenarios.genuine(), 'healthy')]);
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(3));
    expect(selectedKey()).toBe('unproven');
    expect(screen.getByTestId('resume-marker').dataset.tone).toBe('warning');
    const badge = (key: string) => screen.getAllByTestId('session-row').find((r) => r.dataset.key === key)!.querySelector<HTMLElement>('.badge');
    expect(badge('unproven')!.dataset.severity).toBe('warning');
    expect(badge('refused')!.dataset.severity).toBe('info');
    expect(badge('healthy')).toBeNull();
  });

  it('follows the DevTools theme through the adapter', async () => {
    const { memory } = mountPanel(scenarios.genuine(), { theme: 'dark' });
    const main = await screen.findByRole('main');
    expect(main.dataset.theme).toBe('dark');
    memory.setTheme('light');
    await waitFor(() => expect(main.dataset.theme).toBe('light'));
  });

  it('keeps settings in storage through the adapter and re-analyses with new app-sequence pointers', async () => {
    const pointerTraffic = [
      exchange({ session: 's', body: rpc.call(1), text: sse([{ id: 'a', data: rpc.message({ seq: 1 }) }]), end: 'reset' }),
      exchange({ method: 'GET', session: 's', headers: [{ name: 'Last-Event-ID', value: 'a' }], text: sse([{ id: 'b', data: rpc.message({ seq: 9 }) }, { id: 'c', data: rpc.result(1) }]) }),
    ];
    const { memory, lens } = mountPanel();
    expect(lens.workspace.importHar('p.har', JSON.stringify(writeHar(pointerTraffic)))).toBe(true);
    expect((await screen.findByTestId('resume-marker')).dataset.verdict).toBe('unverifiable');
    fireEvent.click(screen.getByTestId('settings-toggle'));
    fireEvent.input(screen.getByTestId('settings-pointers'), { target: { value: 'not a pointer' } });
    expect((await screen.findByRole('alert')).textContent).toContain('Not a JSON pointer');
    fireEvent.input(screen.getByTestId('settings-pointers'), { target: { value: '/params/data/seq' } });
    fireEvent.click(screen.getByTestId('settings-redact'));
    fireEvent.submit(screen.getByTestId('settings'));
    await waitFor(() => expect(memory.stored()).toMatchObject({ appSeqPointers: ['/params/data/seq'], redact: false }));
    await waitFor(() => expect(screen.getByTestId('resume-marker').dataset.verdict).toBe('gap'));
  });

  it('filters the streams and events by method, request id and text', async () => {
    const { lens } = mountPanel(scenarios.lostBuffer());
    await screen.findAllByTestId('event-row');
    const rows = () => screen.getAllByTestId('event-row').length;
    const all = rows();
    fireEvent.input(screen.getByTestId('filter-text'), { target: { value: 'end_turn' } });
    await waitFor(() => expect(rows()).toBe(1));
    lens.filters.clear();
    await waitFor(() => expect(rows()).toBe(all));
    fireEvent.change(screen.getByTestId('filter-method'), { target: { value: 'notifications/progress' } });
    await waitFor(() => expect(screen.getAllByTestId('event-row').every((r) => r.textContent!.includes('notifications/progress'))).toBe(true));
    lens.filters.clear();
    fireEvent.input(screen.getByTestId('filter-request-id'), { target: { value: '0' } });
    await waitFor(() => expect(screen.getAllByTestId('stream-row').map((r) => r.dataset.index)).toEqual(['0']));
  });
});
