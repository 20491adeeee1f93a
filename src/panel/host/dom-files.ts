import type { DownloadFile } from './lens-adapter';

/** Saves a file the way any page can: a blob URL on a temporary `<a download>`. */
export function downloadWithAnchor(doc: Document, file: DownloadFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = file.name;
  a.style.display = 'none';
  doc.body.append(a);
  a.click();
  a.remove();
  // The click has started the download synchronously; the URL is no longer needed after this task.
  queueMicrotask(() => URL.revokeObjectURL(url));
}

/**
 * Copies text. DevTools panels are iframes where the async Clipboard API is often refused (no
 * focus, permissions policy), so the old selection + execCommand path is the fallback.
 */
export async function copyText(doc: Document, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // fall through to the selection path
  }
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  doc.body.append(area);
  area.select();
  const ok = doc.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}
