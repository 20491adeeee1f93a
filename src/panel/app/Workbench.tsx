import { DetailPane } from '../detail/DetailPane';
import { FilterBar } from '../filters/FilterBar';
import { FindingList } from '../findings/FindingList';
import { SessionList } from '../sessions/SessionList';
import { StreamTable } from '../sessions/StreamTable';
import { Timeline } from '../timeline/Timeline';
import { TimelineControls } from '../timeline/TimelineControls';
import { useStaged } from './use-staged';

/** Parts of the workbench, rendered one frame after another when it first shows (use-staged.ts). */
const WORKBENCH_STAGES = 3;

/**
 * Sessions and findings | view bar, timeline, the streams' table | the detail. When it first
 * shows, the timeline comes first (what a capture is for), then the sidebar and the view bar,
 * then the table and the detail; each part's box is there from the start, so nothing moves.
 */
export function Workbench({ detailOpen }: { detailOpen: boolean }) {
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
