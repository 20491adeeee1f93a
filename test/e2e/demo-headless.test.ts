import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCENARIOS, type Scenario } from '../../demo/scenario-catalog.js';
import type { Report, Verdict } from '../../src/core/index.js';
import { withoutEntries } from '../support/fixtures.js';

// Runs the documented command once for every scenario, `npm run demo -- --headless --scenario
// all --out DIR` (one site, one headless Chromium with the real extension), then checks each
// scenario's files, which are the panel's own exports: the CLI must read capture.har to exactly
// the report.json the panel computed live, that report must give the scenario's expected
// verdict, and the panel must show the expected findings. DIR stays as a test artifact
// (test-results/demo-headless/<scenario>/panel.png shows the panel).

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'test-results', 'demo-headless');
const run = promisify(execFile);

interface Expected {
  transports: string[];
  /** Resume verdicts, per session. */
  verdicts: Verdict[][];
  /** Distinct `severity:code` findings over all sessions, sorted. */
  findings: string[];
  /** The client re-issued the call after abandoning the resume. */
  reissued: boolean;
}

const EXPECTED: Record<Scenario, Expected> = {
  genuine: { transports: ['streamable-http'], verdicts: [['genuine']], findings: [], reissued: false },
  'lost-buffer': { transports: ['streamable-http'], verdicts: [['gap']], findings: ['error:resume-seq-gap'], reissued: false },
  rejected: { transports: ['streamable-http', 'streamable-http'], verdicts: [['rejected'], []], findings: ['info:resume-rejected'], reissued: true },
  expired: { transports: ['streamable-http', 'streamable-http'], verdicts: [['expired'], []], findings: ['info:session-expired'], reissued: true },
  empty: { transports: ['streamable-http', 'streamable-http'], verdicts: [['empty'], []], findings: ['warning:resume-empty'], reissued: true },
  duplicate: { transports: ['streamable-http'], verdicts: [['duplicate']], findings: ['error:duplicate-event-id', 'error:resume-seq-regress'], reissued: false },
  'legacy-sse': { transports: ['http+sse'], verdicts: [[]], findings: [], reissued: false },
  stateless: { transports: ['stateless'], verdicts: [['rejected']], findings: ['info:resume-rejected', 'warning:resume-on-stateless'], reissued: true },
};

let demo = { stdout: '', stderr: '' };

// About a minute on two cores; the bounds leave room for an extension rebuild on a busy machine.
beforeAll(async () => {
  await rm(OUT, { recursive: true, force: true });
  if (!existsSync(join(ROOT, 'dist/cli/run.js'))) await run('npm', ['run', 'build:cli'], { cwd: ROOT });
  demo = await run('npm', ['run', 'demo', '--', '--headless', '--scenario', 'all', '--out', OUT], { cwd: ROOT, timeout: 170_000 });
}, 180_000);

/** `mcp-stream-lens check FILE --format json`: its exit code and report. */
async function check(file: string): Promise<{ code: number; report: Report }> {
  const cli = join(ROOT, 'bin/mcp-stream-lens.js');
  const { stdout, code } = await run(process.execPath, [cli, 'check', file, '--format', 'json'], { cwd: ROOT }).then(
    (done) => ({ ...done, code: 0 }),
    (failed: { stdout: string; code: number }) => failed,
  );
  // One input: its report stands at /files/0/report of the CLI's JSON (docs/report.md).
  return { code, report: (JSON.parse(stdout) as { files: { report: Report }[] }).files[0]!.report };
}

const readJson = async <T>(scenario: Scenario, name: string) => JSON.parse(await readFile(join(OUT, scenario, name), 'utf8')) as T;
const findingsOf = (report: Report) => [...new Set(report.sessions.flatMap((s) => s.findings.map((f) => `${f.severity}:${f.code}`)))].sort();

describe('npm run demo -- --headless', () => {
  it('completed every scenario in one run', () => {
    for (const scenario of SCENARIOS) expect(demo.stdout).toContain(`[${scenario}] client believed (ok)`);
  });

  it.each(SCENARIOS)('%s: the CLI reads capture.har to report.json, with the expected verdicts', async (scenario) => {
    const report = await readJson<Report>(scenario, 'report.json');
    const { code, report: fromHar } = await check(join(OUT, scenario, 'capture.har'));
    // The same report, except that the HAR's findings name the entry each came from.
    expect(withoutEntries(fromHar)).toEqual(withoutEntries(report));

    const expected = EXPECTED[scenario];
    expect(report.sessions.map((s) => s.transport)).toEqual(expected.transports);
    expect(report.sessions.map((s) => s.resumes.map((r) => r.verdict))).toEqual(expected.verdicts);
    expect(findingsOf(report)).toEqual(expected.findings);
    expect(code).toBe(report.summary.errors > 0 ? 1 : 0);

    // What a user sees in the real extension panel: the expected findings. (The panel may show an
    // event fewer than the load balancer sent: Chromium drops body bytes the page had not read
    // when the drained connection fails, and the client never saw that event either.)
    const view = await readJson<{ findings: string[]; transports: string[] }>(scenario, 'panel-view.json');
    expect([...new Set(view.findings)].sort()).toEqual([...new Set(expected.findings.map((f) => f.split(':')[1]))].sort());

    const client = await readJson<{ state: string; text: string }>(scenario, 'client.json');
    expect(client.state).toBe('ok');
    expect(client.text.includes('after re-issuing the call')).toBe(expected.reissued);
    // The field report's failure: the client accepted a result the replica invented.
    if (scenario === 'lost-buffer') expect(client.text).toMatch(/"text": "long_task finished"\n/);
    const png = await readFile(join(OUT, scenario, 'panel.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('stateless: the client announced 2026-07-28 on every request and the resume met a 405', async () => {
    const report = await readJson<Report>('stateless', 'report.json');
    const [session] = report.sessions;
    expect(session!.protocolVersion).toBe('2026-07-28');
    const resumed = session!.streams.find((s) => s.index === session!.resumes[0]!.stream)!;
    expect(resumed).toMatchObject({ method: 'GET', status: 405 });
  });
});
