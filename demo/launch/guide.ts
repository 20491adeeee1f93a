import { CATALOG, SCENARIOS } from '../scenario-catalog.js';

/** What the demo prints once everything runs: where to look and what to click. */
export function guide(origin: string, browser: string, panelNote: string | undefined): string {
  const width = Math.max(...SCENARIOS.map((s) => s.length));
  return [
    '',
    `MCP Stream Lens demo: ${origin}/ is open in ${browser}, with the extension and DevTools.`,
    panelNote ?? 'DevTools shows the "MCP Streams" panel.',
    '',
    'Click a scenario button on the page. The page shows what the MCP client believed; the',
    'MCP Streams panel shows what really happened on the wire:',
    ...SCENARIOS.map((s) => `  ${s.padEnd(width)}  ${CATALOG[s].expect}`),
    '',
    'Start with lost-buffer: the client reports success, the panel shows the app_seq jump in red.',
    'Stop with Ctrl-C here, or close the browser.',
    '',
  ].join('\n');
}
