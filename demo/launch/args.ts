import { parseArgs } from 'node:util';
import { isScenario, SCENARIOS, type Scenario } from '../scenario-catalog.js';
import { DemoError } from './demo-error.js';

/** The page's port when none is given; headless runs pick a free one. */
export const DEFAULT_PORT = 5180;

export interface DemoOptions {
  headless: boolean;
  browser: 'chromium' | 'firefox';
  /** Headless: the scenarios to run. Headed: the one to start on (may be empty). */
  scenarios: Scenario[];
  out?: string;
  port: number;
}

export const USAGE = `usage: npm run demo -- [--firefox] [--scenario NAME] [--port N]
       npm run demo -- --headless --scenario NAME|all --out DIR [--port N]

Starts real MCP SDK servers behind a draining load balancer and the demo page on
http://127.0.0.1:${DEFAULT_PORT}/, then opens Chromium (or Firefox ESR) with the extension and DevTools.
--headless runs scenarios in headless Chromium with the extension and writes capture.har,
report.json and panel.png to DIR (to DIR/<scenario>/ when several run).
Scenarios: ${SCENARIOS.join(', ')}.`;

/** Parses the demo's arguments; a bad one is a DemoError that names the problem. */
export function parseDemoArgs(argv: readonly string[]): DemoOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        headless: { type: 'boolean', default: false },
        firefox: { type: 'boolean', default: false },
        scenario: { type: 'string', multiple: true, default: [] },
        out: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new DemoError(`${error instanceof Error ? error.message : String(error)} (npm run demo -- --help)`);
  }
  if (values.help) return 'help';
  const names: string[] = values.scenario.flatMap((s): readonly string[] => (s === 'all' ? SCENARIOS : [s]));
  const unknown = names.filter((s) => !isScenario(s));
  if (unknown.length > 0) throw new DemoError(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}, or all`);
  const scenarios = [...new Set(names as Scenario[])];
  const port = values.port === undefined ? (values.headless ? 0 : DEFAULT_PORT) : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new DemoError(`--port must be a port number from 0 to 65535, not ${values.port}`);
  if (values.headless) {
    if (scenarios.length === 0 || values.out === undefined) throw new DemoError('--headless needs --scenario NAME (or all) and --out DIR');
    if (values.firefox) throw new DemoError('--headless runs in Chromium only; drop --firefox');
  } else if (scenarios.length > 1) {
    throw new DemoError('the headed demo starts on one scenario; pick one --scenario, or none and use the buttons');
  }
  return { headless: values.headless, browser: values.firefox ? 'firefox' : 'chromium', scenarios, out: values.out, port };
}
