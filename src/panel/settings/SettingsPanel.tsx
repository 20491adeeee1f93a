import { useState } from 'preact/hooks';
import { useLens } from '../app/lens-context';
import { FidelitySwitch } from './FidelitySwitch';
import { clampCap, clampEvents, MAX_EVENTS_SETTING, MAX_EXCHANGES_SETTING, MIN_EVENTS, MIN_EXCHANGES, parsePointers } from '../model/settings';

/** App-sequence pointers, the buffer cap and export redaction, saved through the adapter. */
export function SettingsPanel({ close }: { close: () => void }) {
  const lens = useLens();
  const current = lens.settings.settings.value;
  const [pointers, setPointers] = useState(current.appSeqPointers.join('\n'));
  const [cap, setCap] = useState(String(current.maxExchanges));
  const [events, setEvents] = useState(String(current.maxEvents));
  const [redact, setRedact] = useState(current.redact);
  const [fidelity, setFidelity] = useState(current.fullFidelity);
  const [denied, setDenied] = useState(false);
  const control = lens.store.fidelityControl;
  const parsed = parsePointers(pointers);
  const capNumber = Number(cap);
  const capValid = Number.isFinite(capNumber) && capNumber >= MIN_EXCHANGES && capNumber <= MAX_EXCHANGES_SETTING;
  const eventsNumber = Number(events);
  const eventsValid = Number.isFinite(eventsNumber) && eventsNumber >= MIN_EVENTS && eventsNumber <= MAX_EVENTS_SETTING;
  const valid = parsed.invalid.length === 0 && capValid && eventsValid;
  const save = (e: Event) => {
    e.preventDefault();
    if (!valid) return;
    // Asked for here, in the click: a browser asks for a permission only in a user gesture.
    const granted = fidelity && !current.fullFidelity && control ? control.request() : Promise.resolve(fidelity);
    void granted.then((on) => {
      setDenied(fidelity && !on);
      const patch = { appSeqPointers: parsed.pointers, maxExchanges: clampCap(capNumber), maxEvents: clampEvents(eventsNumber), redact, fullFidelity: on };
      return lens.settings.update(patch).then(() => (fidelity && !on ? undefined : close()));
    });
  };
  return (
    <form class="settings" data-testid="settings" aria-label="Settings" onSubmit={save}>
      <h2>Settings</h2>
      <label for="lens-pointers">App-sequence JSON pointers (one per line)</label>
      <p class="muted">Used when a message carries neither app_seq nor a progress value, e.g. /params/data/seq.</p>
      <textarea id="lens-pointers" data-testid="settings-pointers" rows={3} value={pointers} onInput={(e) => setPointers((e.currentTarget as HTMLTextAreaElement).value)} />
      {parsed.invalid.length > 0 ? <p class="field-error" role="alert">Not a JSON pointer: {parsed.invalid.join(', ')}</p> : null}
      <label for="lens-cap">Exchanges kept by the live capture</label>
      <input id="lens-cap" data-testid="settings-cap" type="number" min={MIN_EXCHANGES} max={MAX_EXCHANGES_SETTING} value={cap} onInput={(e) => setCap((e.currentTarget as HTMLInputElement).value)} />
      {!capValid ? <p class="field-error" role="alert">Between {MIN_EXCHANGES} and {MAX_EXCHANGES_SETTING}; past it new exchanges are dropped and counted.</p> : null}
      <label for="lens-event-cap">Events kept by the live capture</label>
      <input id="lens-event-cap" data-testid="settings-event-cap" type="number" min={MIN_EVENTS} max={MAX_EVENTS_SETTING} value={events} onInput={(e) => setEvents((e.currentTarget as HTMLInputElement).value)} />
      {!eventsValid ? <p class="field-error" role="alert">Between {MIN_EVENTS} and {MAX_EVENTS_SETTING}; past it the oldest events are evicted and counted.</p> : null}
      <label class="check">
        <input type="checkbox" data-testid="settings-redact" checked={redact} onChange={(e) => setRedact((e.currentTarget as HTMLInputElement).checked)} /> Redact
        exports: blank Authorization, Cookie and Set-Cookie, and replace session ids with redacted-1, redacted-2…
      </label>
      {control ? (
        <FidelitySwitch control={control} status={lens.store.fidelity.value} on={fidelity} saved={current.fullFidelity} denied={denied} onChange={setFidelity} />
      ) : null}
      <div class="settings-actions">
        <button type="submit" data-testid="settings-save" disabled={!valid}>
          Save
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
