import type { PanelAdapter } from '../adapter';
import type { Theme } from '../timeline/palette';

/** Where settings are kept: extension storage, the shell's localStorage, or memory in tests. */
export interface SettingsStorage {
  load(): Promise<unknown>;
  save(value: unknown): Promise<void>;
}

/** The DevTools theme (`devtools.panels.themeName`), or the shell's choice. */
export interface ThemeSource {
  current(): Theme;
  /** Calls `listener` when the theme changes; returns the unsubscribe function. */
  subscribe(listener: (theme: Theme) => void): () => void;
}

/** A file the user asked to save. */
export interface DownloadFile {
  name: string;
  type: string;
  text: string;
}

/**
 * Everything the panel needs from the place it runs in. The extension, the inline shell and the
 * tests each provide one; the panel imports nothing browser-specific besides this.
 */
export interface LensAdapter {
  /** The live capture feed (the extension's background port, or a replay). */
  capture: PanelAdapter;
  settings: SettingsStorage;
  theme: ThemeSource;
  download(file: DownloadFile): void;
  copy(text: string): Promise<void>;
}
