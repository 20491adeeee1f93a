/**
 * Records the real-parts HAR fixtures: the real SDK client, through the fault-injecting load
 * balancer, against real SDK replicas (and a scripted replica for the faults).
 *
 *   npm run record-fixtures                 -> test/fixtures/har/sdk-<scenario>.har
 *   npm run record-fixtures -- --out DIR    -> DIR/sdk-<scenario>.har
 *   npm run record-fixtures -- --only genuine
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runLongTask } from '../demo/client/long-task-client.js';
import { toHar } from '../demo/lb/har.js';
import { DEMO_FAULTS, SCENARIOS, startScenario, type Scenario } from '../demo/lb/scenario.js';
import { CATALOG, DEMO_TASK } from '../demo/scenario-catalog.js';

// 12 steps of 40 ms; the drain lands after the priming event and app_seq 1..5, and the lost
// buffer's invented app_seq jumps 5 -> 11 (DEMO_TASK, DEMO_FAULTS).
async function record(scenario: Scenario, outDir: string): Promise<void> {
  const { lb, close } = await startScenario(scenario, DEMO_FAULTS);
  try {
    const run = await runLongTask(lb.url, DEMO_TASK, { client: CATALOG[scenario].client });
    // The client has closed; wait until the load balancer has seen every exchange end.
    await lb.log.settled();
    const file = join(outDir, `sdk-${scenario}.har`);
    await writeFile(file, `${JSON.stringify(toHar(lb.log.all()), null, 2)}\n`);

    const belief = 'result' in run.belief ? { result: run.belief.result } : { error: run.belief.error };
    console.log(`\n[${scenario}] wrote ${file} (${lb.log.all().length} entries)`);
    console.log(`  progress app_seq seen: ${run.progress.map((p) => `${p.attempt}:${String(p.app_seq)}`).join(' ')}`);
    if (run.errors.length > 0) console.log(`  SDK onerror: ${run.errors.map((e) => JSON.stringify(e)).join('\n               ')}`);
    if (run.abandoned.length > 0) console.log(`  abandoned resumes: ${run.abandoned.map((e) => JSON.stringify(e)).join(', ')}`);
    if (run.reissued) console.log('  the app re-issued the call after the resume failed');
    console.log(`  client believed: ${JSON.stringify(belief)}`);
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string', multiple: true } } });
  const outDir = values.out ?? 'test/fixtures/har';
  const chosen = values.only ?? SCENARIOS;
  const unknown = chosen.filter((s) => !SCENARIOS.includes(s as Scenario));
  if (unknown.length > 0) throw new Error(`unknown scenario(s): ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  await mkdir(outDir, { recursive: true });
  // One at a time: each scenario has its own servers and its own log.
  for (const scenario of chosen as Scenario[]) await record(scenario, outDir);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
