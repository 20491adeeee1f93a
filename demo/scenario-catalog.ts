/**
 * The demo's scenarios as plain data: names, what each one does, and how a client reaches it.
 * Imported by the browser page as well as by Node (load balancer, launcher, tests), so it holds
 * no I/O.
 */

export type Scenario = 'genuine' | 'lost-buffer' | 'rejected' | 'expired' | 'empty' | 'duplicate' | 'legacy-sse' | 'stateless';

export const SCENARIOS: readonly Scenario[] = ['genuine', 'lost-buffer', 'rejected', 'expired', 'empty', 'duplicate', 'legacy-sse', 'stateless'];

/** Which client transport a scenario needs. */
export type ClientKind = 'streamable-http' | 'legacy-sse' | 'stateless';

export interface ScenarioInfo {
  title: string;
  /** What the load balancer and the replicas do, in one sentence. */
  story: string;
  /** What the panel (and `mcp-stream-lens check`) should show. */
  expect: string;
  client: ClientKind;
}

export const CATALOG: Readonly<Record<Scenario, ScenarioInfo>> = {
  genuine: {
    title: 'Genuine resume',
    story: 'The stream is drained mid-call; the resume goes back to the replica that owns the session and replays from the shared event log.',
    expect: 'resume verdict genuine, no findings',
    client: 'streamable-http',
  },
  'lost-buffer': {
    title: 'Lost buffer',
    story: 'The resume lands on a replica without the buffer: it answers 200, invents the next event and a "finished" result.',
    expect: 'verdict gap, error resume-seq-gap (app_seq 5 -> 11): the client believed a fake result',
    client: 'streamable-http',
  },
  rejected: {
    title: 'Rejected resume (honest)',
    story: 'The resume gets 409 resume_unavailable; the page re-issues the call, which completes.',
    expect: 'verdict rejected, info resume-rejected, no result-lost',
    client: 'streamable-http',
  },
  expired: {
    title: 'Expired session',
    story: 'The resume lands on a replica that never had the session: 404; the page starts a new session and re-issues.',
    expect: 'verdict expired, info session-expired',
    client: 'streamable-http',
  },
  empty: {
    title: 'Empty resume',
    story: 'The resume answers 200 with only keep-alives, then closes; the page gives up on it and re-issues.',
    expect: 'verdict empty, warning resume-empty',
    client: 'streamable-http',
  },
  duplicate: {
    title: 'Replay from too early',
    story: "The replicas' event store replays from two events before Last-Event-ID: ids and app_seq repeat.",
    expect: 'verdict duplicate, errors resume-seq-regress and duplicate-event-id',
    client: 'streamable-http',
  },
  'legacy-sse': {
    title: 'Legacy HTTP+SSE (2024-11-05)',
    story: "The SDK's SSEServerTransport and SSEClientTransport: no resumption, just a session with its progress.",
    expect: 'an http+sse session, no findings',
    client: 'legacy-sse',
  },
  stateless: {
    title: 'Stateless (2026-07-28 style)',
    story: 'No sessions, no resumption; the client still resumes with Last-Event-ID and the server honestly answers 405; the page re-issues.',
    expect: 'a stateless session, warning resume-on-stateless',
    client: 'stateless',
  },
};

/** Where the demo site mounts a scenario's load balancer. */
export function mountOf(scenario: Scenario): string {
  return `/s/${scenario}`;
}

/** The path a client connects to, under the scenario's mount (or at the root of its own port). */
export function clientPathOf(scenario: Scenario): '/mcp' | '/sse' {
  return CATALOG[scenario].client === 'legacy-sse' ? '/sse' : '/mcp';
}

export function isScenario(name: string): name is Scenario {
  return (SCENARIOS as readonly string[]).includes(name);
}

/** The sessionless revision the demo's stateless client announces (and its replicas accept). */
export const STATELESS_REVISION = '2026-07-28';

/** The call every demo run makes: 12 progress steps 40 ms apart (about half a second). */
export const DEMO_TASK = { steps: 12, delayMs: 40 } as const;
