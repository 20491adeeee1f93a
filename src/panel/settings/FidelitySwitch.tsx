import type { FidelityControl, FidelityStatus } from '../adapter';

/** One line on what the switch does; the browser's own warning follows it. */
export const FIDELITY_EXPLAIN = "Follows the MCP requests of the page's Workers live, with every chunk and reset, through the browser's debugger (an optional permission).";

function statusText(status: FidelityStatus, on: boolean): string {
  if (status.error) return `Not attached: ${status.error}.`;
  if (status.attached) return `Attached to this tab${status.workers > 0 ? ` and ${status.workers} Worker${status.workers === 1 ? '' : 's'}` : ''}.`;
  return on ? 'Not attached yet.' : 'Off: nothing is attached.';
}

/**
 * "Capture workers and early requests": off by default. It takes effect on Save, where the
 * permission is asked for (a browser asks only in the user's click).
 */
export function FidelitySwitch(props: { control: FidelityControl; status: FidelityStatus; on: boolean; saved: boolean; denied: boolean; onChange(on: boolean): void }) {
  return (
    <div class="fidelity" data-testid="fidelity">
      <label class="check">
        <input type="checkbox" data-testid="settings-fidelity" checked={props.on} onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)} /> Capture
        workers and early requests
      </label>
      <p class="muted">
        {props.control.explain ?? FIDELITY_EXPLAIN} {props.control.warning}
      </p>
      {props.denied ? (
        <p class="field-error" role="alert">
          The permission was not granted, so the switch stays off.
        </p>
      ) : null}
      <p class="muted" data-testid="fidelity-status" data-attached={String(props.status.attached)} data-workers={props.status.workers}>
        {statusText(props.status, props.saved)}
      </p>
    </div>
  );
}
