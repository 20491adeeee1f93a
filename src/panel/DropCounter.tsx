import type { DropSummary } from './drop-ledger';

/** Every item that did not reach the panel, with the reason in the tooltip. */
export function DropCounter({ drops }: { drops: DropSummary }) {
  const why = [
    `rejected page messages: ${drops.rejected}`,
    `tap caps: ${drops.tapDropped}`,
    `page history before a panel attached: ${drops.evicted}`,
    `lost in transit: ${drops.lost} (history evictions ${drops.background.evictedItems}, tab evictions ${drops.background.evictedTabs})`,
    `network panel reports: ${drops.networkDropped}`,
    `panel cap: ${drops.panelDropped}`,
    `oldest events evicted by the panel's event cap: ${drops.panelEvicted}`,
    `items of streams whose start was dropped: ${drops.orphaned}`,
  ].join('\n');
  return (
    <span class={drops.total > 0 ? 'drops drops-some' : 'drops'} title={why}>
      dropped: <span data-testid="dropped-count" data-rejected={drops.rejected} data-lost={drops.lost} data-panel-evicted={drops.panelEvicted}>{drops.total}</span>
    </span>
  );
}
