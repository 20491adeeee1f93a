import { useComputed } from '@preact/signals';
import { useState } from 'preact/hooks';
import { DetailPane } from '../detail/DetailPane';
import { FilterBar } from '../filters/FilterBar';
import { FindingList } from '../findings/FindingList';
import { importFile } from '../io/import-file';
import { SessionList } from '../sessions/SessionList';
import { StreamTable } from '../sessions/StreamTable';
import { SettingsPanel } from '../settings/SettingsPanel';
import { TabChooser } from '../TabChooser';
import { Timeline } from '../timeline/Timeline';
import { TimelineControls } from '../timeline/TimelineControls';
import type { Lens } from './create-lens';
import { EmptyState } from './EmptyState';
import { LensContext } from './lens-context';
import { NoticeBar } from './NoticeBar';
import { onPanelKey } from './panel-keys';
import { Toolbar } from './Toolbar';
import { useStaged } from './use-staged';

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

/** Parts of the workbench, rendered one frame after another when it first shows (use-staged.ts). */
const WORKBENCH_STAGES = 3;

/**
 * Sessions and findings | view bar, timeline, the streams' table | the detail. When it first
 * shows, the timeline comes first (what a capture is for), then the sidebar and the view bar,
 * then the table and the detail; each part's box is there from the start, so nothing moves.
 */
function Workbench({ detailOpen }: { detailOpen: boolean }) {
  const stage = useStaged(WORKBENCH_STAGES);
  return (
    // Busy while parts are still to come: what a screen reader (and a test) waits out.
    <div class={`workbench${detailOpen ? ' detail-open' : ''}`} aria-busy={stage < WORKBENCH_STAGES ? 'true' : undefined}>
      <aside class="sidebar" aria-label="Sessions and findings">
        {stage >= 2 ? (
          <>
            <SessionList />
            <FindingList />
          </>
        ) : null}
      </aside>
      <div class="view-bar">
        {stage >= 2 ? (
          <>
            <FilterBar />
            <TimelineControls />
          </>
        ) : null}
      </div>
      <Timeline />
      {stage >= 3 ? <StreamTable /> : null}
      {stage >= 3 ? <DetailPane /> : null}
    </div>
  );
}
