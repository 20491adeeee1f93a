import { signal } from '@preact/signals';
import type { SettingsStorage } from '../host/lens-adapter';
import { DEFAULT_SETTINGS, parseSettings, type Settings } from './settings';

/** The settings as signals; every change is written back through the adapter's storage. */
export function createSettingsStore(storage: SettingsStorage) {
  const settings = signal<Settings>(DEFAULT_SETTINGS);
  const loaded = signal(false);
  /** Why the last save failed, shown beside the settings form. */
  const saveError = signal<string | null>(null);
  return {
    settings,
    loaded,
    saveError,
    async load(): Promise<void> {
      try {
        settings.value = parseSettings(await storage.load());
      } catch {
        settings.value = DEFAULT_SETTINGS; // unreadable storage: defaults, and say nothing more
      }
      loaded.value = true;
    },
    async update(patch: Partial<Settings>): Promise<void> {
      settings.value = parseSettings({ ...settings.value, ...patch });
      try {
        await storage.save(settings.value);
        saveError.value = null;
      } catch (error) {
        saveError.value = `Settings could not be saved: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
