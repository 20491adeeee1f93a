import { MAX_IMPORT_BYTES, type Workspace } from '../model/workspace';

/** Reads a file the user picked or dropped and imports it; failures become the workspace's notice. */
export async function importFile(workspace: Workspace, file: File): Promise<boolean> {
  if (file.size > MAX_IMPORT_BYTES) {
    workspace.refuse(file.name, `it is ${(file.size / 1024 / 1024).toFixed(0)} MB, over the ${MAX_IMPORT_BYTES / 1024 / 1024} MB the panel reads`);
    return false;
  }
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    workspace.refuse(file.name, `it could not be read (${error instanceof Error ? error.message : String(error)})`);
    return false;
  }
  return workspace.importHar(file.name, text);
}
