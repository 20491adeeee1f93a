import type { CaptureStore } from './capture-store';

/** Standalone viewer (opened as a tab, outside DevTools): pick the tab to watch. */
export function TabChooser({ store }: { store: CaptureStore }) {
  const tabs = store.tabs.value;
  if (!tabs) return null;
  const dropped = store.tabsDropped.value;
  if (tabs.length === 0 && dropped > 0) return <p class="empty">No tab's capture is kept now: {dropped.toLocaleString('en')} captured items of older tabs were let go (the tab cap).</p>;
  if (tabs.length === 0) return <p class="empty">No tab has captured MCP traffic yet.</p>;
  return (
    <ul class="tabs">
      {tabs.map((t) => (
        <li key={t.tabId}>
          <button type="button" data-testid="tab-choice" data-tab-id={t.tabId} onClick={() => store.attach(t.tabId)}>
            Tab {t.tabId} ({t.items} items)
          </button>
        </li>
      ))}
    </ul>
  );
}
