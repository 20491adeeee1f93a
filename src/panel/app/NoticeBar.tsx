import { ImportProgress } from '../io/ImportProgress';
import { TapLostNotice } from '../TapLostNotice';
import { useLens } from './lens-context';

/** The outcome of the last import (a clear reason when it failed), and a tap the page defeated. */
export function NoticeBar() {
  const lens = useLens();
  const notice = lens.workspace.notice.value;
  const saveError = lens.settings.saveError.value;
  return (
    <>
      <TapLostNotice losses={lens.store.drops.value.tapLost} networkOnly={lens.store.networkOnly.value} />
      <ImportProgress />
      {notice ? (
        <div class={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="notice" data-kind={notice.kind}>
          <span>{notice.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => lens.workspace.dismissNotice()}>
            ×
          </button>
        </div>
      ) : null}
      {saveError ? <div class="notice notice-error" role="alert">{saveError}</div> : null}
    </>
  );
}
