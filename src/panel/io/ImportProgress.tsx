import { useLens } from '../app/lens-context';

/** An import under way: a bar of bytes read of the file's size, and a way to stop it. */
export function ImportProgress() {
  const progress = useLens().workspace.importing.value;
  if (!progress) return null;
  const percent = progress.total > 0 ? Math.floor((100 * progress.read) / progress.total) : 0;
  return (
    <div class="notice notice-info import-progress" role="status" data-testid="import-progress">
      <label>
        Importing {progress.name}: {mib(progress.read)} of {mib(progress.total)}{' '}
        <progress data-testid="import-progress-bar" max={progress.total} value={progress.read} aria-valuetext={`${percent}%`} />
      </label>
      <button type="button" data-testid="import-cancel" onClick={progress.cancel}>
        Cancel
      </button>
    </div>
  );
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
