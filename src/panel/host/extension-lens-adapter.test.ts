import { describe, expect, it } from 'vitest';
import type { PanelAdapter } from '../adapter';
import { createExtensionLensAdapter, SETTINGS_KEY, type DevtoolsPanelsLike } from './extension-lens-adapter';

const capture: PanelAdapter = { connect: () => () => undefined, attach: () => undefined, clear: () => undefined, reload: () => undefined, canReload: false };

function fakeStorage() {
  const items: Record<string, unknown> = {};
  return { items, get: async (key: string) => (key in items ? { [key]: items[key] } : {}), set: async (more: Record<string, unknown>) => void Object.assign(items, more) };
}

describe('extension adapter', () => {
  it('keeps settings in extension storage under one key', async () => {
    const storage = fakeStorage();
    const adapter = createExtensionLensAdapter({ capture, storage, panels: undefined, prefersDark: () => false, doc: {} as Document });
    expect(await adapter.settings.load()).toBeUndefined();
    await adapter.settings.save({ redact: false });
    expect(storage.items[SETTINGS_KEY]).toEqual({ redact: false });
    expect(await adapter.settings.load()).toEqual({ redact: false });
  });

  it('follows devtools.panels.themeName and its change event', () => {
    const listeners = new Set<(name: string) => void>();
    const panels: DevtoolsPanelsLike = { themeName: 'dark', onThemeChanged: { addListener: (l) => void listeners.add(l), removeListener: (l) => void listeners.delete(l) } };
    const adapter = createExtensionLensAdapter({ capture, storage: fakeStorage(), panels, prefersDark: () => false, doc: {} as Document });
    expect(adapter.theme.current()).toBe('dark');
    const seen: string[] = [];
    const stop = adapter.theme.subscribe((t) => seen.push(t));
    for (const l of listeners) l('default');
    expect(seen).toEqual(['light']);
    expect(adapter.theme.current()).toBe('light');
    stop();
    expect(listeners.size).toBe(0);
  });

  it('uses the OS preference in the standalone viewer, which has no DevTools theme', () => {
    const adapter = createExtensionLensAdapter({ capture, storage: fakeStorage(), panels: undefined, prefersDark: () => true, doc: {} as Document });
    expect(adapter.theme.current()).toBe('dark');
  });
});
