import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FINDINGS } from '../../core';
import { runCli } from '../../../test/support/cli-run';

const ROOT = join(import.meta.dirname, '../../..');
const FIXTURES = join(ROOT, 'test/fixtures/har');
// The OASIS schema (draft-04), shipped as a fixture: see test/fixtures/schemas/README.md.
const schema = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/schemas/sarif-schema-2.1.0.json'), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

type Sarif = { runs: { tool: { driver: { rules: { id: string; shortDescription: { text: string }; help: { text: string }; defaultConfiguration: { level: string } }[] } }; results: { ruleId: string; ruleIndex: number; level: string; locations: { physicalLocation: { artifactLocation: { uri: string } }; logicalLocations?: { fullyQualifiedName: string }[] }[] }[]; invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[] };

async function sarif(...files: string[]): Promise<{ code: number; log: Sarif }> {
  const { code, out } = await runCli(['check', ...files, '--format', 'sarif']);
  const log = JSON.parse(out) as Sarif;
  const valid = validate(log);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  return { code, log };
}

describe('--format sarif', () => {
  it('validates against the SARIF 2.1.0 schema: one rule per finding code, from the findings table', async () => {
    const { code, log } = await sarif(join(FIXTURES, 'sdk-lost-buffer.har'));
    expect(code).toBe(1);
    const { rules } = log.runs[0]!.tool.driver;
    expect(rules.map((r) => r.id)).toEqual(Object.keys(FINDINGS));
    const gapRule = rules.find((r) => r.id === 'resume-seq-gap')!;
    expect(gapRule).toMatchObject({ shortDescription: { text: FINDINGS['resume-seq-gap'].title }, defaultConfiguration: { level: 'error' } });
    expect(gapRule.help.text).toContain(FINDINGS['resume-seq-gap'].advice.server);
    expect(rules.find((r) => r.id === 'resume-rejected')!.defaultConfiguration.level).toBe('note');
    // The schema is really applied: SARIF has no `info` level.
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ level: 'info', message: { text: 'x' } }] }] })).toBe(false);
  });

  it('each result names its rule, the HAR file and the HAR entry', async () => {
    const { log } = await sarif(join(FIXTURES, 'sdk-lost-buffer.har'));
    const { results, tool } = log.runs[0]!;
    const gap = results.find((r) => r.ruleId === 'resume-seq-gap')!;
    expect(tool.driver.rules[gap.ruleIndex]!.id).toBe('resume-seq-gap');
    expect(gap.level).toBe('error');
    expect(gap.locations[0]!.physicalLocation.artifactLocation.uri).toBe(`file://${FIXTURES}/sdk-lost-buffer.har`);
    expect(gap.locations[0]!.logicalLocations![0]!.fullyQualifiedName).toMatch(/^log\.entries\[\d+\]$/);
  });

  it('every fixture, and an unreadable file, still give a valid log; a relative path stays relative', async () => {
    const fixtures = ['sdk-genuine.har', 'sdk-empty.har', 'sdk-expired.har', 'sdk-rejected.har', 'sdk-duplicate.har', 'sdk-stateless.har', 'sdk-legacy-sse.har', 'writers'];
    const { code, log } = await sarif(...fixtures.map((f) => join(FIXTURES, f)), 'test/fixtures/har/no such.har');
    expect(code).toBe(2);
    const run = log.runs[0]!;
    expect(run.invocations[0]!.executionSuccessful).toBe(false);
    expect(run.invocations[0]!.toolExecutionNotifications[0]!.message.text).toContain('no such.har: cannot read');
    const relative = await sarif('test/fixtures/har/sdk-lost-buffer.har');
    expect(relative.log.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('test/fixtures/har/sdk-lost-buffer.har');
  });
});
