import { copyText, downloadWithAnchor } from '../host/dom-files';
import type { PanelAdapter } from '../adapter';
import type { LensAdapter, SettingsStorage, ThemeSource } from '../host/lens-adapter';
import { createReplayAdapter } from '../host/replay-adapter';
import type { Theme } from '../timeline/palette';

const SETTINGS_KEY = 'mcp-stream-lens/settings';

/** The shell keeps settings in localStorage (a page has no extension storage). */
function localSettings(storage: Storage | undefined): SettingsStorage {
  return {
    load: async () => JSON.parse(storage?.getItem(SETTINGS_KEY) ?? 'null') as unknown,
    save: async (value) => storage?.setItem(SETTINGS_KEY, JSON.stringify(value)),
  };
}

/** `?theme=dark|light` when given (tests, screenshots), else the OS preference, live. */
function pageTheme(win: Window, forced: string | null): ThemeSource {
  const query = win.matchMedia?.('(prefers-color-scheme: dark)');
  const current = (): Theme => (forced === 'dark' || forced === 'light' ? forced : query?.matches ? 'dark' : 'light');
  return {
    current,
    subscribe(listener) {
      if (!query || forced) return () => undefined;
      const onChange = () => listener(current());
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
  };
}

/**
 * The inline shell's adapter: a replay feed for the capture (or `capture`, the proxy's live
 * feed), and the page's own storage and files.
 */
export function createShellAdapter(win: Window, capture?: PanelAdapter) {
  const params = new URLSearchParams(win.location.search);
  // A plain page inspects no page of its own: "Reload and capture from start" would only replay
  // the same recording into the same view, so the shell does not offer it.
  const replay = createReplayAdapter({ canReload: false });
  let storage: Storage | undefined;
  try {
    storage = win.localStorage;
  } catch {
    storage = undefined; // storage blocked (file:// in some browsers): settings last for the visit
  }
  const adapter: LensAdapter = {
    capture: capture ?? replay.adapter,
    settings: localSettings(storage),
    theme: pageTheme(win, params.get('theme')),
    download: (file) => downloadWithAnchor(win.document, file),
    copy: (text) => copyText(win.document, text),
  };
  return { adapter, replay, params };
}
