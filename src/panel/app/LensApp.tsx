import { useComputed } from '@preact/signals';
import { useState } from 'preact/hooks';
import { importFile } from '../io/import-file';
import { SettingsPanel } from '../settings/SettingsPanel';
import { TabChooser } from '../TabChooser';
import type { Lens } from './create-lens';
import { EmptyState } from './EmptyState';
import { LensContext } from './lens-context';
import { NoticeBar } from './NoticeBar';
import { onPanelKey } from './panel-keys';
import { Toolbar } from './Toolbar';
import { Workbench } from './Workbench';

/**
 * The panel, as tall as its window: the toolbar, then sessions and findings | filters, timeline,
 * the streams' table | the detail. Where the detail has no column of its own (lens.css), it
 * opens over the table, under the timeline.
 */
export function LensApp({ lens }: { lens: Lens }) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Through a computed: the app re-renders when sessions first appear, not on every report (each
  // part below subscribes to what it shows).
  const hasSessions = useComputed(() => (lens.report.value?.sessions.length ?? 0) > 0).value;
  const detailOpen = useComputed(() => lens.selection.mark.value !== null || lens.selection.stream.value !== null).value;
  const onDrop = (e: DragEvent) => {
    const file = e.dataTransfer?.files[0];
    if (!file) return;
    e.preventDefault();
    void importFile(lens.workspace, file);
  };
  return (
    <LensContext.Provider value={lens}>
      <main class="lens" data-theme={lens.theme.value} onDragOver={(e) => e.preventDefault()} onDrop={onDrop} onKeyDown={(e) => onPanelKey(lens, e)}>
        <Toolbar settingsOpen={settingsOpen} toggleSettings={() => setSettingsOpen(!settingsOpen)} />
        <NoticeBar />
        {settingsOpen ? <SettingsPanel close={() => setSettingsOpen(false)} /> : null}
        <TabChooser store={lens.store} />
        {hasSessions ? (
          <Workbench detailOpen={detailOpen} />
        ) : (
          <EmptyState />
        )}
      </main>
    </LensContext.Provider>
  );
}
