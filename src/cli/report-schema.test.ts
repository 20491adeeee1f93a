import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { FINDINGS } from '../core';
import { runCli } from '../../test/support/cli-run';

// schema/report.schema.json ships in the package; every fixture's output must match it, and it
// must name every finding code, so a new code or field cannot reach users undocumented.
const ROOT = join(import.meta.dirname, '../..');
const schema = JSON.parse(readFileSync(join(ROOT, 'schema/report.schema.json'), 'utf8')) as { definitions: Record<string, { enum?: string[] }> };
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = ajv.compile(schema);
const fixtures = globSync(['test/fixtures/har/**/*.har', 'test/fixtures/regressions/**/*.har'], { cwd: ROOT }).sort();

describe('schema/report.schema.json', () => {
  it('names every finding code of the findings table', () => {
    expect([...schema.definitions.findingCode!.enum!].sort()).toEqual(Object.keys(FINDINGS).sort());
  });

  it.each(fixtures)('validates the JSON output for %s', async (fixture) => {
    const { out } = await runCli(['check', join(ROOT, fixture), '--format', 'json']);
    const output = JSON.parse(out) as unknown;
    validate(output);
    expect(validate.errors ?? []).toEqual([]);
  });

  it('validates several files with an unreadable one, and refuses a report with a field it does not know', async () => {
    const { out } = await runCli(['check', ...fixtures.slice(0, 3).map((f) => join(ROOT, f)), join(ROOT, 'missing.har'), '--format', 'json']);
    const output = JSON.parse(out) as { files: { report?: { sessions: { findings: Record<string, unknown>[] }[] } }[] };
    expect(validate(output)).toBe(true);
    const finding = output.files.flatMap((f) => f.report?.sessions ?? []).flatMap((s) => s.findings)[0]!;
    finding.renamed = true;
    expect(validate(output)).toBe(false);
  });
});
