import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { runLongTask, type LongTaskRun } from '../../demo/client/long-task-client.js';
import { RECONNECTION } from '../../demo/client/mcp-session.js';
import type { Exchange } from '../../demo/lb/exchange.js';
import { DEMO_FAULTS, startScenario, type Scenario } from '../../demo/lb/scenario.js';
import { CATALOG, DEMO_TASK } from '../../demo/scenario-catalog.js';
import { guardClient, guardTransport, ResumptionBoundaryError, type GuardEvent, type GuardOptions } from '../../src/guard/index.js';

// The guard with real parts: the real SDK client (StreamableHTTPClientTransport) and the real SDK
// server replicas behind the demo's fault-injecting load balancer, which drains the tool call
// after app_seq 5 and routes the resume as each scenario says. What the client got is checked
// against what went over the wire (the balancer's own recording). Each run takes about a second.

/** The demo call; app_seq 13 is the real result's, the lost buffer's fake one is 12. */
const ARGS = { ...DEMO_TASK, idempotencyKey: 'guard-test' };

interface Guarded {
  result?: CallToolResult;
  error?: unknown;
  /** app_seq of each progress notification the client's `onprogress` got. */
  progress: unknown[];
  events: GuardEvent[];
  wire: readonly Exchange[];
  /** The session's revision, as the guard's own analysis labels it. */
  revision?: string | null;
}

/**
 * The SDK client always asks for its latest revision; an older client is played by rewriting
 * the revision its initialize request asks for (the server then answers with that one).
 */
const askingFor = (revision: string): typeof fetch => (input, init) =>
  fetch(input, typeof init?.body === 'string' && init.body.includes('"initialize"') ? { ...init, body: init.body.replace(/"protocolVersion":"[^"]+"/, `"protocolVersion":"${revision}"`) } : init);

/** One guarded `long_task` call through `scenario`'s balancer, the way an app would make it. */
async function callGuarded(scenario: Scenario, options: Omit<GuardOptions, 'onEvent'>, { listTools = true, revision = '' } = {}): Promise<Guarded> {
  const { lb, close } = await startScenario(scenario, DEMO_FAULTS);
  const events: GuardEvent[] = [];
  const progress: unknown[] = [];
  const outcome: Guarded = { progress, events, wire: [] };
  try {
    const client = guardClient(new Client({ name: 'guard-test', version: '0.1.0' }));
    const plain = new StreamableHTTPClientTransport(new URL(lb.url), { reconnectionOptions: RECONNECTION, ...(revision && { fetch: askingFor(revision) }) });
    const transport = guardTransport(plain, { ...options, onEvent: (e) => events.push(e) });
    await client.connect(transport);
    if (listTools) await client.listTools();
    try {
      outcome.result = (await client.callTool({ name: 'long_task', arguments: ARGS }, undefined, {
        timeout: 20_000,
        onprogress: (p) => progress.push((p as { _meta?: { app_seq?: unknown } })._meta?.app_seq),
      })) as CallToolResult;
    } catch (error) {
      outcome.error = error;
    }
    outcome.revision = transport.guard.report().sessions[0]?.protocolVersion ?? null;
    await client.close();
    await lb.log.settled();
    outcome.wire = lb.log.all();
  } finally {
    await close();
  }
  return outcome;
}

/** One demo run (the page's client, with its own re-issue on a failed resume), guarded or not. */
async function demoRun(scenario: Scenario, guard?: Omit<GuardOptions, 'onEvent'>): Promise<{ run: LongTaskRun; wire: readonly Exchange[] }> {
  const { lb, close } = await startScenario(scenario, DEMO_FAULTS);
  try {
    const run = await runLongTask(lb.url, DEMO_TASK, { client: CATALOG[scenario].client, ...(guard && { guard }) });
    await lb.log.settled();
    return { run, wire: lb.log.all() };
  } finally {
    await close();
  }
}

const rpcOf = (e: Exchange) => (e.request.body.length > 0 ? (JSON.parse(e.request.body.toString('utf8')) as { id?: unknown; method?: string; params?: Record<string, unknown> }) : undefined);
const toolCalls = (wire: readonly Exchange[]) => wire.filter((e) => rpcOf(e)?.method === 'tools/call').map((e) => rpcOf(e)!);
const cancellations = (wire: readonly Exchange[]) => wire.filter((e) => rpcOf(e)?.method === 'notifications/cancelled').map((e) => rpcOf(e)!.params);
const resumes = (wire: readonly Exchange[]) => wire.filter((e) => e.request.method === 'GET' && e.request.headers.some(([n]) => n.toLowerCase() === 'last-event-id'));
/** The exchanges as a list of what each one was, for comparing a guarded run with a plain one. */
const shape = (wire: readonly Exchange[]) =>
  wire.filter((e) => rpcOf(e)?.method !== 'tools/list').map((e) => `${e.request.method} ${rpcOf(e)?.method ?? (resumes([e]).length ? 'resume' : '')} ${e.response?.status ?? 0}`);
const types = (events: readonly GuardEvent[]) => events.map((e) => e.type);
const appSeqOf = (result: CallToolResult | undefined) => (result?._meta as { app_seq?: number } | undefined)?.app_seq;

describe('guardTransport with the real SDK behind the fault-injecting load balancer', () => {
  it('genuine: the resume is handed over untouched, with the same exchanges as without the guard', async () => {
    const guarded = await callGuarded('genuine', {});
    expect(appSeqOf(guarded.result)).toBe(13);
    expect(guarded.progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(types(guarded.events)).toEqual(['accepted']);
    expect(guarded.events[0]).toMatchObject({ verdict: 'genuine' });
    const plain = await demoRun('genuine');
    expect(shape(guarded.wire)).toEqual(shape(plain.wire).filter((line) => !line.startsWith('DELETE')));
    expect(cancellations(guarded.wire)).toEqual([]);
  });

  it('lost-buffer: the fabricated result is withheld, the call cancelled and re-issued, and the true result returned', async () => {
    const { result, error, progress, events, wire } = await callGuarded('lost-buffer', {});
    expect(error).toBeUndefined();
    expect(appSeqOf(result)).toBe(13);
    expect(result?.content).toEqual([{ type: 'text', text: 'long_task finished 12 steps on a' }]);
    // The invented progress (app_seq 11) never reached the client; the re-issue's did, from 1.
    expect(progress).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(types(events)).toEqual(['refused', 'reissued']);
    expect(events[0]).toMatchObject({ finding: { code: 'resume-seq-gap' }, verdict: 'gap', withheldEvents: 2 });

    const [first, again] = toolCalls(wire);
    expect(toolCalls(wire)).toHaveLength(2);
    expect(again!.id).toBe(`${String(first!.id)}/reissue-1`);
    expect(again!.params!.arguments).toEqual(first!.params!.arguments);
    expect(cancellations(wire)).toEqual([{ requestId: first!.id, reason: expect.stringContaining('resume-seq-gap') }]);
    // The fake result did go over the wire, on the one resume; the guard kept it from the client.
    expect(resumes(wire)).toHaveLength(1);
    expect(Buffer.concat(resumes(wire)[0]!.chunks.map((c) => c.bytes)).toString()).toContain('"text":"long_task finished"');
  });

  it('lost-buffer under policy throw: the call rejects with a ResumptionBoundaryError carrying the finding', async () => {
    const { result, error, wire } = await callGuarded('lost-buffer', { policy: 'throw' });
    expect(result).toBeUndefined();
    expect(error).toBeInstanceOf(ResumptionBoundaryError);
    const refusal = error as ResumptionBoundaryError;
    expect([refusal.finding.code, refusal.verdict, refusal.reason, refusal.stream.method, refusal.stream.status]).toEqual(['resume-seq-gap', 'gap', 'policy', 'GET', 200]);
    expect(refusal.stream.lastEventId).toBe(refusal.resume.lastEventId);
    expect(refusal.finding.message).toContain('from 5 to 11');
    expect([refusal.expected, refusal.got, refusal.lastSeen]).toEqual([6, 11, 5]);
    expect(toolCalls(wire)).toHaveLength(1);
    expect(cancellations(wire)).toHaveLength(1);
  });

  it('duplicate: the early replay is refused and the call re-issued (or thrown, by policy)', async () => {
    const reissued = await callGuarded('duplicate', {});
    expect(appSeqOf(reissued.result)).toBe(13);
    expect(reissued.events[0]).toMatchObject({ type: 'refused', finding: { code: 'resume-seq-regress' }, verdict: 'duplicate' });
    expect(toolCalls(reissued.wire)).toHaveLength(2);
    // No app_seq repeated within an attempt: the replayed 4 and 5 never reached the client.
    expect(reissued.progress).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

    const thrown = await callGuarded('duplicate', { policy: 'throw' });
    expect(thrown.error).toBeInstanceOf(ResumptionBoundaryError);
    const regress = thrown.error as ResumptionBoundaryError;
    expect(regress.finding.code).toBe('resume-seq-regress');
    // The replay started two events early: at app_seq 4, after 5 was seen.
    expect([regress.expected, regress.got, regress.lastSeen]).toEqual([6, 4, 5]);
  });

  it('a tool that is not idempotent, under reissue: it throws rather than calling twice', async () => {
    const declared = await callGuarded('lost-buffer', { policy: 'reissue', idempotent: () => false });
    expect(declared.error).toBeInstanceOf(ResumptionBoundaryError);
    expect((declared.error as ResumptionBoundaryError).reason).toBe('not-idempotent');
    expect(toolCalls(declared.wire)).toHaveLength(1);

    // Without tools/list the guard never saw the tool's annotations, so it does not assume them.
    const unlisted = await callGuarded('lost-buffer', {}, { listTools: false });
    expect((unlisted.error as ResumptionBoundaryError).reason).toBe('not-idempotent');
    expect(toolCalls(unlisted.wire)).toHaveLength(1);
  });

  it.each(['2025-03-26', '2025-06-18'])('on revision %s too (no priming events): genuine handed over, lost-buffer re-issued', async (revision) => {
    const genuine = await callGuarded('genuine', {}, { revision });
    expect(genuine.revision).toBe(revision);
    const post = genuine.wire.find((e) => rpcOf(e)?.method === 'tools/call')!;
    expect(Buffer.concat(post.chunks.map((c) => c.bytes)).toString()).not.toMatch(/^id: [^\n]+\ndata: \n\n/);
    expect(types(genuine.events)).toEqual(['accepted']);
    expect(appSeqOf(genuine.result)).toBe(13);
    const lost = await callGuarded('lost-buffer', {}, { revision });
    expect(lost.revision).toBe(revision);
    expect(types(lost.events)).toEqual(['refused', 'reissued']);
    expect(appSeqOf(lost.result)).toBe(13);
  });

  it('re-issues at most maxReissues times', async () => {
    const none = await callGuarded('lost-buffer', { maxReissues: 0 });
    expect((none.error as ResumptionBoundaryError).reason).toBe('reissue-limit');
    expect(toolCalls(none.wire)).toHaveLength(1);
  });

  it.each(['rejected', 'expired', 'empty'] as const)('%s: the SDK\'s own error path, untouched (the app re-issues as without the guard)', async (scenario) => {
    const guarded = await demoRun(scenario, {});
    const plain = await demoRun(scenario);
    expect(guarded.run.belief).toEqual(plain.run.belief);
    expect(appSeqOf('result' in guarded.run.belief ? guarded.run.belief.result : undefined)).toBe(13);
    expect(guarded.run.reissued).toBe(true);
    expect(guarded.run.errors).toEqual(plain.run.errors);
    expect(guarded.run.guardEvents.filter((e) => e.type !== 'accepted')).toEqual([]);
    expect(cancellations(guarded.wire)).toEqual([]);
    expect(shape(guarded.wire)).toEqual(shape(plain.wire));
  });

  it.each([['stateless', 'stateless'], ['legacy-sse', 'http+sse']] as const)('%s: a pass-through that says why once', async (scenario, reason) => {
    const { run } = await demoRun(scenario, {});
    expect(appSeqOf('result' in run.belief ? run.belief.result : undefined)).toBe(13);
    // Once per guarded transport: the app opens a second one when it re-issues the call itself.
    expect(run.guardEvents.map((e) => e.type)).toEqual(run.reissued ? ['pass-through', 'pass-through'] : ['pass-through']);
    for (const event of run.guardEvents) expect(event.message).toContain(reason === 'stateless' ? 'keeps no sessions' : 'legacy HTTP+SSE');
  });
});
