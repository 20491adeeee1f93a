// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, expect, it } from 'vitest';
import { exchange, rpc, sse } from '../../../test/support/fixtures';
import { MAX_SHOWN_CHARS } from '../detail/ClippedText';
import { createMemoryAdapter } from '../host/memory-adapter';
import { createLens } from './create-lens';
import { LensApp } from './LensApp';

afterEach(() => cleanup());

it('renders hostile stream content as inert text: <script>, RTL overrides, control characters, 1 MB values', async () => {
  const script = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
  const rtl = 'evil\u202Egnp.exe';
  const huge = 'x'.repeat(1024 * 1024);
  const hostile = exchange({
    session: `s${rtl}`,
    body: rpc.call(1),
    text: sse([
      { id: `id-${script}`, data: rpc.message(script) },
      { id: `${rtl}\u0007`, data: rpc.message(`null\u0000 ${rtl}`) },
      { id: 'big', data: rpc.message(huge) },
      { id: 'bad', data: script },
    ]),
  });
  const memory = createMemoryAdapter();
  const lens = createLens(memory.adapter);
  lens.start();
  memory.replay.replayExchanges([hostile]);
  const { container } = render(<LensApp lens={lens} />);
  // The streams' table is the workbench's last part to render (LensApp.tsx).
  await screen.findAllByTestId('event-row');
  expect(container.querySelector('script, img, iframe')).toBeNull();
  expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  // The override is shown as a code point, never applied.
  expect(container.textContent).not.toContain('\u202E');
  expect(container.textContent).toContain('⟨U+202E⟩');
  expect(container.textContent).toContain('⟨U+0007⟩');
  expect(screen.getAllByTestId('finding').some((f) => f.dataset.code === 'malformed-event')).toBe(true);

  lens.selection.selectMark({ stream: 0, event: 2 });
  const detail = await screen.findByTestId('event-detail');
  // The 1 MB value is clipped until the user asks for all of it.
  for (const pre of detail.querySelectorAll('pre')) expect(pre.textContent!.length).toBeLessThanOrEqual(MAX_SHOWN_CHARS + 100);
  expect(detail.textContent).toContain('Show all');

  lens.selection.selectMark({ stream: 0, event: 0 });
  await waitFor(() => expect(screen.getByTestId('event-detail').dataset.event).toBe('0'));
  expect(screen.getByTestId('event-detail').textContent).toContain('<script>window.__pwned = 1</script>');
  expect(container.querySelector('script, img')).toBeNull();
  fireEvent.click(screen.getByTestId('export-har'));
  expect(memory.downloads[0]!.name).toMatch(/^mcp-session-[A-Za-z0-9._-]+\.har$/);
});
