import type { LongTaskRun, ProgressSeen } from '../client/long-task-client.js';
import type { GuardEvent, GuardPolicy } from '../../src/guard/index.js';
import { CATALOG, SCENARIOS, type Scenario } from '../scenario-catalog.js';

/** The page's DOM. Everything from the network is written as text, never as HTML. */
export interface PageView {
  /** Shows the scenario's description and marks the run as in progress, guarded by `policy` or not. */
  start(scenario: Scenario, policy: GuardPolicy | undefined): void;
  progress(seen: ProgressSeen): void;
  note(text: string): void;
  /** Shows something the guard did. */
  guard(event: GuardEvent): void;
  /** Shows what the client believed and settles `client-result` to ok or error. */
  finish(run: LongTaskRun): void;
  /** Shows an error that stopped the run before the client could believe anything. */
  fail(message: string): void;
}

const byId = (id: string) => document.getElementById(id)!;
const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;

/** Renders one button per scenario; `onRun` gets the clicked scenario. */
export function createPageView(onRun: (scenario: Scenario) => void): PageView {
  const nav = byId('scenarios');
  const buttons = new Map<Scenario, HTMLButtonElement>();
  for (const scenario of SCENARIOS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = scenario;
    button.title = CATALOG[scenario].story;
    button.dataset.testid = `run-${scenario}`;
    button.addEventListener('click', () => onRun(scenario));
    nav.append(button);
    buttons.set(scenario, button);
  }
  const result = byTestId('client-result');
  const progress = byTestId('client-progress');
  const notes = byTestId('client-notes');
  const guardNotes = byTestId('guard-notes');
  let attempt = 0;
  let guardReissued = false;
  const settle = (state: 'ok' | 'error', text: string) => {
    result.textContent = text;
    result.dataset.state = state;
    for (const button of buttons.values()) button.disabled = false;
  };

  return {
    start(scenario, policy) {
      const info = CATALOG[scenario];
      byId('title').textContent = `${scenario}: ${info.title}`;
      byId('story').textContent = info.story;
      byId('expect').textContent = `In the MCP Streams panel: ${info.expect}.`;
      for (const [name, button] of buttons) {
        button.disabled = true;
        button.setAttribute('aria-pressed', String(name === scenario));
      }
      result.dataset.scenario = scenario;
      result.dataset.state = 'running';
      result.textContent = 'Calling long_task…';
      progress.textContent = '';
      notes.textContent = '';
      guardNotes.textContent = policy ? `Guarded, policy "${policy}": no resume judged yet.\n` : 'The client runs unguarded.';
      guardNotes.dataset.policy = policy ?? 'off';
      attempt = 0;
      guardReissued = false;
    },
    progress(seen) {
      const prefix = seen.attempt === attempt ? '' : `${progress.textContent ? '\n' : ''}attempt ${(attempt = seen.attempt)}: app_seq`;
      progress.textContent += `${prefix} ${String(seen.app_seq)}`;
    },
    note(text) {
      notes.textContent += `${text}\n`;
    },
    guard(event) {
      if (event.type === 'reissued') guardReissued = true;
      guardNotes.textContent += `${event.type}: ${event.message}\n`;
    },
    finish(run) {
      const again = guardReissued ? ' (after the guard re-issued the call)' : run.reissued ? ' (after re-issuing the call)' : '';
      if ('result' in run.belief) settle('ok', `Result${again}:\n${JSON.stringify(run.belief.result, null, 2)}`);
      else settle('error', `Error${again}:\n${run.belief.error}`);
    },
    fail(message) {
      settle('error', `Error:\n${message}`);
    },
  };
}
