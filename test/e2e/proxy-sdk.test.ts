import { describe, expect, it } from 'vitest';
import { runLongTask } from '../../demo/client/long-task-client.js';
import { DEMO_FAULTS, startScenario, type Scenario } from '../../demo/lb/scenario.js';
import { CATALOG, DEMO_TASK } from '../../demo/scenario-catalog.js';
import { analyze, pseudonymizeReport, readHar, sessionPseudonyms, writeHar, type Report } from '../../src/core/index.js';
import { startProxy } from '../../src/proxy/server.js';
import { parseTargets, type Target } from '../../src/proxy/targets.js';

// The proxy with real parts: the real SDK client calls `long_task` through the proxy, which sits
// in front of the demo's fault-injecting load balancer and its real SDK server replicas. The
// balancer drains the call after app_seq 5 and routes the resume as the scenario says.

async function throughProxy(scenario: Scenario) {
  const { lb, close } = await startScenario(scenario, DEMO_FAULTS);
  const proxy = await startProxy({ targets: parseTargets([lb.url]) as Target[], listen: { host: '127.0.0.1', port: 0 } });
  try {
    const run = await runLongTask(proxy.urls[0]!.url, { ...DEMO_TASK, idempotencyKey: `proxy-${scenario}` });
    await lb.log.settled();
    await proxy.stop();
    const report = await proxy.analysis.report({ final: true });
    // Read back before the spool is given back.
    const exchanges = proxy.recording.exchanges();
    await proxy.close();
    return { run, report, exchanges, counters: proxy.counters, wire: lb.log.all() };
  } finally {
    await close();
  }
}

const verdicts = (report: Report) => report.sessions.flatMap((s) => s.resumes.map((r) => r.verdict));
const codes = (report: Report) => report.sessions.flatMap((s) => s.findings.map((f) => f.code));

describe('mcp-stream-lens proxy with the real SDK server and client', () => {
  it('genuine: the client gets the real result through the proxy, and the live analysis calls the resume genuine', async () => {
    const { run, report, exchanges: recorded, counters, wire } = await throughProxy('genuine');
    expect('result' in run.belief && (run.belief.result._meta as { app_seq?: number }).app_seq).toBe(13);
    expect(run.progress.map((p) => p.app_seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(verdicts(report)).toEqual(['genuine']);
    expect(report.summary.errors).toBe(0);
    // Every exchange the balancer saw came through the proxy, and was recorded with its chunks.
    expect(recorded.map((e) => e.method)).toEqual(wire.map((e) => e.request.method));
    const drained = recorded.find((e) => e.body?.includes('"tools/call"'))!;
    expect(drained.end.state).toBe('reset');
    expect(drained.chunks.length).toBeGreaterThan(1);
    expect(drained.chunks.every((c, i) => i === 0 || c.time >= drained.chunks[i - 1]!.time)).toBe(true);
    expect(counters.targetResets).toBe(1);
  });

  it('lost buffer: the invented result is caught live, and the HAR the proxy writes gives the same report', async () => {
    const { run, report, exchanges } = await throughProxy('lost-buffer');
    // The client believed the fake result: that is the failure the proxy is there to show.
    expect('result' in run.belief).toBe(true);
    expect(verdicts(report)).toEqual(['gap']);
    expect(codes(report)).toContain('resume-seq-gap');
    expect(report.summary.errors).toBeGreaterThan(0);

    const har = writeHar(exchanges);
    const text = JSON.stringify(har);
    const sessionId = exchanges.flatMap((e) => e.responseHeaders).find((h) => h.name.toLowerCase() === 'mcp-session-id')!.value;
    expect(text).not.toContain(sessionId); // pseudonymized by default, as exports are
    const read = readHar(text);
    if (!read.ok) throw new Error(read.reason);
    const fromHar = analyze(read.exchanges, { keepPayloads: false });
    expect(fromHar).toEqual(pseudonymizeReport(report, sessionPseudonyms(exchanges)));
  });

  it('two named targets on one proxy: a legacy HTTP+SSE server (its endpoint rewritten under /legacy) and a stateless one', async () => {
    const legacy = await startScenario('legacy-sse', DEMO_FAULTS);
    const stateless = await startScenario('stateless', DEMO_FAULTS);
    const proxy = await startProxy({ targets: parseTargets([`legacy=${legacy.lb.url}`, `stateless=${stateless.lb.url}`]) as Target[], listen: { host: '127.0.0.1', port: 0 } });
    try {
      const [legacyUrl, statelessUrl] = proxy.urls.map((u) => u.url);
      expect(legacyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/legacy\/sse$/);
      expect(statelessUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/stateless\/mcp$/);
      // The legacy client POSTs wherever the endpoint event says: unrewritten, that is the target itself.
      const legacyRun = await runLongTask(legacyUrl!, { ...DEMO_TASK, idempotencyKey: 'proxy-legacy' }, { client: CATALOG['legacy-sse'].client });
      expect('result' in legacyRun.belief).toBe(true);
      const statelessRun = await runLongTask(statelessUrl!, { ...DEMO_TASK, idempotencyKey: 'proxy-stateless' }, { client: CATALOG.stateless.client });
      expect('result' in statelessRun.belief).toBe(true);
      await legacy.lb.log.settled();
      await stateless.lb.log.settled();
      await proxy.stop();
      const report = await proxy.analysis.report({ final: true });
      expect(report.sessions.map((s) => s.transport).sort()).toEqual(['http+sse', 'stateless']);
      expect(codes(report)).toContain('resume-on-stateless');
      const endpoint = proxy.recording.exchanges().find((e) => e.url.endsWith('/legacy/sse'))!;
      const firstEvent = new TextDecoder().decode(endpoint.chunks[0]!.data as Uint8Array);
      expect(firstEvent).toMatch(/^event: endpoint\r?\ndata: \/legacy\/messages\?sessionId=[\w-]+\r?\n/);
      // Every POST of the legacy session went through the proxy, none around it.
      expect(legacy.lb.log.all().filter((e) => e.request.method === 'POST').length).toBe(proxy.recording.exchanges().filter((e) => e.method === 'POST' && e.url.includes('/legacy/messages')).length);
      expect(proxy.counters.unrouted).toBe(0);
    } finally {
      await proxy.stop(0);
      await proxy.close();
      await legacy.close();
      await stateless.close();
    }
  });
});
