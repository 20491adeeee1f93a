import type { PanelAdapter } from '../adapter';
import type { Theme } from '../timeline/palette';
import { copyText, downloadWithAnchor } from './dom-files';
import type { LensAdapter, SettingsStorage, ThemeSource } from './lens-adapter';

/** The key the settings live under in `storage.local`. */
export const SETTINGS_KEY = 'panelSettings';

/** The slice of `browser.storage.local` the panel uses. */
export interface StorageAreaLike {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** The slice of `browser.devtools.panels` the panel uses (Firefox has the event; Chrome does not). */
export interface DevtoolsPanelsLike {
  themeName?: string;
  onThemeChanged?: { addListener(listener: (name: string) => void): void; removeListener(listener: (name: string) => void): void };
}

export interface ExtensionLensDeps {
  /** The capture feed over the background port (`createExtensionAdapter`). */
  capture: PanelAdapter;
  storage: StorageAreaLike;
  /** Absent in the standalone viewer (a tab, not a DevTools panel). */
  panels: DevtoolsPanelsLike | undefined;
  /** The OS preference, for the standalone viewer that has no DevTools theme. */
  prefersDark: () => boolean;
  doc: Document;
}

const themeOf = (name: string | undefined, prefersDark: () => boolean): Theme =>
  name === 'dark' ? 'dark' : name === undefined ? (prefersDark() ? 'dark' : 'light') : 'light';

function devtoolsTheme(panels: DevtoolsPanelsLike | undefined, prefersDark: () => boolean): ThemeSource {
  let name = panels?.themeName;
  return {
    current: () => themeOf(name, prefersDark),
    subscribe(listener) {
      // Chrome reloads the panel when the DevTools theme changes; Firefox tells us instead.
      const event = panels?.onThemeChanged;
      if (!event) return () => undefined;
      const onChange = (next: string) => {
        name = next;
        listener(themeOf(next, prefersDark));
      };
      event.addListener(onChange);
      return () => event.removeListener(onChange);
    },
  };
}

function extensionSettings(storage: StorageAreaLike): SettingsStorage {
  return {
    load: async () => (await storage.get(SETTINGS_KEY))[SETTINGS_KEY],
    save: (value) => storage.set({ [SETTINGS_KEY]: value }),
  };
}

/** The extension's adapter: the background port for capture, extension storage, the DevTools theme. */
export function createExtensionLensAdapter(deps: ExtensionLensDeps): LensAdapter {
  return {
    capture: deps.capture,
    settings: extensionSettings(deps.storage),
    theme: devtoolsTheme(deps.panels, deps.prefersDark),
    download: (file) => downloadWithAnchor(deps.doc, file),
    copy: (text) => copyText(deps.doc, text),
  };
}
