import type { Delivery } from '../../shared/messages';
import type { Theme } from '../timeline/palette';
import type { DownloadFile, LensAdapter } from './lens-adapter';
import { createReplayAdapter } from './replay-adapter';

/**
 * The test adapter: settings in memory, a theme the test sets, downloads and copies recorded, and
 * a replay feed for the capture.
 */
export function createMemoryAdapter(init: { theme?: Theme; settings?: unknown } = {}) {
  let stored: unknown = init.settings;
  let theme: Theme = init.theme ?? 'light';
  const themeListeners = new Set<(theme: Theme) => void>();
  const downloads: DownloadFile[] = [];
  const copies: string[] = [];
  const replay = createReplayAdapter();
  const adapter: LensAdapter = {
    capture: replay.adapter,
    settings: {
      load: async () => stored,
      save: async (value) => void (stored = structuredClone(value)),
    },
    theme: {
      current: () => theme,
      subscribe(listener) {
        themeListeners.add(listener);
        return () => themeListeners.delete(listener);
      },
    },
    download: (file) => void downloads.push(file),
    copy: async (text) => void copies.push(text),
  };
  return {
    adapter,
    downloads,
    copies,
    replay,
    stored: () => stored,
    setTheme(next: Theme): void {
      theme = next;
      for (const listener of themeListeners) listener(next);
    },
    deliver: (deliveries: readonly Delivery[]) => replay.replayDeliveries(deliveries),
  };
}
