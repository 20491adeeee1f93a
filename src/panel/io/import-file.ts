import { createAnalyzer, type Exchange } from '../../core/index';
import type { Workspace } from '../model/workspace';
import { readHarOffThread } from './read-off-thread';
import { createSlicedFeed } from './sliced-feed';

/** While a file is read, its capture's report is taken again this often... */
const REFRESH_MS = 500;
/**
 * ...or sooner, once the analysis has completed this many events: the views take in each new
 * event once (the timeline's arrays, the method list), so the events since the last refresh are
 * what a refresh costs, in one task.
 */
const REFRESH_EVENTS = 25_000;

/**
 * Imports a file the user picked or dropped. A worker reads it entry by entry (the file is never
 * one string, so its size is bounded by the machine only), and the panel analyses the exchanges
 * as they arrive, in slices of its time, so it stays responsive. The capture is shown as soon
 * as it holds a session, and grows as the rest is read, as a live capture does.
 * `workspace.importing` shows the bytes read until it is done or cancelled; failures become the
 * workspace's notice, and take back what was shown.
 */
export async function importFile(workspace: Workspace, file: File): Promise<boolean> {
  workspace.importing.peek()?.cancel();
  const analyzer = createAnalyzer(workspace.options());
  const exchanges: Exchange[] = [];
  const shown = workspace.beginImport(file.name, exchanges, analyzer);
  let refreshed = -Infinity;
  const feed = createSlicedFeed(analyzer, {
    due: (fresh) => fresh >= REFRESH_EVENTS || performance.now() - refreshed >= REFRESH_MS,
    refresh: () => {
      refreshed = performance.now();
      shown.source.refresh();
      if ((shown.source.report.peek()?.sessions.length ?? 0) > 0) shown.show();
    },
  });
  let cancelled = false;
  const read = readHarOffThread(file, {
    progress: (done, total) => {
      const current = workspace.importing.peek();
      if (current && !cancelled) workspace.importing.value = { ...current, read: done, total };
    },
    exchanges: (list) => {
      for (const exchange of list) exchanges.push(exchange);
      feed.add(list);
    },
  });
  const progress = {
    name: file.name,
    read: 0,
    total: file.size,
    cancel: () => {
      cancelled = true;
      read.cancel();
      feed.cancel();
      shown.withdraw();
      if (workspace.importing.peek()?.cancel === progress.cancel) workspace.importing.value = null;
    },
  };
  workspace.importing.value = progress;
  const result = await read.done;
  if (cancelled) return false;
  await feed.drained();
  if (cancelled) return false;
  workspace.importing.value = null;
  if (!result) return false;
  if (!result.ok) {
    shown.withdraw();
    workspace.refuse(file.name, result.reason);
    return false;
  }
  return workspace.importExchanges(file.name, { exchanges, skippedEntries: result.skippedEntries, problems: result.problems, analyzer }, shown);
}
