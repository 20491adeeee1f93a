import type { Workspace } from '../model/workspace';
import { nextTask } from '../next-task';
import { createFileSource } from './file-source';

/**
 * Imports a file the user picked or dropped. A worker reads it entry by entry (the file is never
 * one string, so its size is bounded by the machine only) and analyses it as it reads, so the
 * panel stays responsive (file-source.ts). The capture is shown as soon as it holds a session,
 * and grows as the rest is read, as a live capture does. `workspace.importing` shows the bytes
 * read until it is done or cancelled; failures become the workspace's notice, and take back what
 * was shown.
 */
export async function importFile(workspace: Workspace, file: File): Promise<boolean> {
  workspace.importing.peek()?.cancel();
  let cancelled = false;
  const ours = () => workspace.importing.peek()?.cancel === progress.cancel;
  const shown = workspace.beginImport((id) =>
    createFileSource(id, file.name, file, workspace.options(), {
      progress: (read, total) => {
        if (ours() && !cancelled) workspace.importing.value = { ...workspace.importing.peek()!, read, total };
      },
      analysed: (report) => {
        // Its first render in a task of its own: this one has taken in the analysis already.
        if (report.sessions.length > 0) nextTask(() => cancelled || shown.show());
      },
    }),
  );
  const progress = {
    name: file.name,
    read: 0,
    total: file.size,
    cancel: () => {
      cancelled = true;
      shown.source.cancel();
      shown.withdraw();
      if (ours()) workspace.importing.value = null;
    },
  };
  workspace.importing.value = progress;
  const result = await shown.source.settled();
  if (cancelled) return false;
  if (ours()) workspace.importing.value = null;
  if (!result) return false;
  if (!result.ok) {
    shown.withdraw();
    workspace.refuse(file.name, result.reason);
    return false;
  }
  return workspace.finishImport(file.name, result, shown);
}
