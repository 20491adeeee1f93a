import { createAnalyzer, type Exchange } from '../../core/index';
import type { Workspace } from '../model/workspace';
import { readHarOffThread } from './read-off-thread';
import { createSlicedFeed } from './sliced-feed';

/**
 * Imports a file the user picked or dropped. A worker reads it entry by entry (the file is never
 * one string, so its size is bounded by the machine only), and the panel analyses the exchanges
 * as they arrive, in slices of its time, so it stays responsive. `workspace.importing` shows the
 * bytes read until it is done or cancelled; failures become the workspace's notice.
 */
export async function importFile(workspace: Workspace, file: File): Promise<boolean> {
  workspace.importing.peek()?.cancel();
  const analyzer = createAnalyzer(workspace.options());
  const feed = createSlicedFeed(analyzer);
  const exchanges: Exchange[] = [];
  let cancelled = false;
  const read = readHarOffThread(file, {
    progress: (done, total) => {
      const shown = workspace.importing.peek();
      if (shown && !cancelled) workspace.importing.value = { ...shown, read: done, total };
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
    workspace.refuse(file.name, result.reason);
    return false;
  }
  return workspace.importExchanges(file.name, { exchanges, skippedEntries: result.skippedEntries, problems: result.problems, analyzer });
}
