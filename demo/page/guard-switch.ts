import type { GuardPolicy } from '../../src/guard/index.js';

/** The page's "guarded client" switch: off, or on with the guard's policy. */
export interface GuardSwitch {
  /** The policy to run the next call with, or undefined when the client runs unguarded. */
  policy(): GuardPolicy | undefined;
  /** Disables the controls while a call runs. */
  setBusy(busy: boolean): void;
}

const POLICIES: readonly GuardPolicy[] = ['reissue', 'throw'];

const byTestId = <T extends HTMLElement>(id: string) => document.querySelector<T>(`[data-testid="${id}"]`)!;

/**
 * Wires the switch and its policy choice, both kept in the URL (`?guard=reissue|throw`), so a
 * link or a reload runs the same client. `onChange` hears each change.
 */
export function createGuardSwitch(query: URLSearchParams, onChange: (policy: GuardPolicy | undefined) => void): GuardSwitch {
  const toggle = byTestId<HTMLInputElement>('guard-switch');
  const select = byTestId<HTMLSelectElement>('guard-policy');
  const asked = query.get('guard');
  toggle.checked = asked !== null && (POLICIES as readonly string[]).includes(asked);
  if (toggle.checked) select.value = asked!;
  const current = (): GuardPolicy | undefined => (toggle.checked ? (select.value as GuardPolicy) : undefined);
  const sync = () => {
    select.disabled = !toggle.checked;
    onChange(current());
  };
  toggle.addEventListener('change', sync);
  select.addEventListener('change', sync);
  select.disabled = !toggle.checked;
  return {
    policy: current,
    setBusy(busy) {
      toggle.disabled = busy;
      select.disabled = busy || !toggle.checked;
    },
  };
}
