import { useComputed } from '@preact/signals';
import { useState } from 'preact/hooks';
import { EventDetail } from '../detail/EventDetail';
import { FilterBar } from '../filters/FilterBar';
import { FindingList } from '../findings/FindingList';
import { importFile } from '../io/import-file';
import { SessionList } from '../sessions/SessionList';
import { StreamList } from '../sessions/StreamList';
import { SettingsPanel } from '../settings/SettingsPanel';
import { TabChooser } from '../TabChooser';
import { Timeline } from '../timeline/Timeline';
import type { Lens } from './create-lens';
import { EmptyState } from './EmptyState';
import { LensContext } from './lens-context';
import { NoticeBar } from './NoticeBar';
import { Toolbar } from './Toolbar';

/** The panel: toolbar, then sessions and findings | filters, timeline, streams | event detail. */
export function LensApp({ lens }: { lens: Lens }) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Through a computed: the app re-renders when sessions first appear, not on every report (each
  // part below subscribes to what it shows).
  const hasSessions = useComputed(() => (lens.report.value?.sessions.length ?? 0) > 0).value;
  const onDrop = (e: DragEvent) => {
    const file = e.dataTransfer?.files[0];
    if (!file) return;
    e.preventDefault();
    void importFile(lens.workspace, file);
  };
  return (
    <LensContext.Provider value={lens}>
      <main class="lens" data-theme={lens.theme.value} onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
        <Toolbar settingsOpen={settingsOpen} toggleSettings={() => setSettingsOpen(!settingsOpen)} />
        <NoticeBar />
        {settingsOpen ? <SettingsPanel close={() => setSettingsOpen(false)} /> : null}
        <TabChooser store={lens.store} />
        {hasSessions ? (
          <div class="workbench">
            <aside class="sidebar">
              <SessionList />
              <FindingList />
            </aside>
            <div class="centre">
              <FilterBar />
              <Timeline />
              <StreamList />
            </div>
            <aside class="detail-pane">
              <EventDetail />
            </aside>
          </div>
        ) : (
          <EmptyState />
        )}
      </main>
    </LensContext.Provider>
  );
}
