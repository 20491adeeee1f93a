import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readHar, type Exchange, type Report } from '../../src/core';

/** The exchanges of a recorded fixture in test/fixtures/har; throws if any entry was skipped. */
export function loadHarFixture(name: string): Exchange[] {
  const result = readHar(readFileSync(join(import.meta.dirname, '../fixtures/har', name), 'utf8'));
  if (!result.ok) throw new Error(`${name}: ${result.reason}`);
  if (result.skippedEntries > 0) throw new Error(`${name}: ${result.skippedEntries} entries skipped: ${result.problems.join('; ')}`);
  return result.exchanges;
}

/** Every finding of a report as `severity:code`, in report order. */
export const findingCodes = (report: Report): string[] => report.sessions.flatMap((s) => s.findings.map((f) => `${f.severity}:${f.code}`));
