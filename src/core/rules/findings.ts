import type { StreamState } from '../analysis/state';
import type { Finding, FindingCode, FindingEvidence, Severity } from '../report';

/** What one finding code means, written once for the CLI, the panel, SARIF rules and the README. */
export interface FindingInfo {
  /** The code's one severity. */
  severity: Severity;
  /**
   * A severity the rule may raise the finding to instead, and when: only `body-not-captured`
   * has one (a warning when a verdict depends on the body that is missing).
   */
  escalated?: { severity: Severity; when: string };
  /** A few words, for a heading or a SARIF rule's short description. */
  title: string;
  /** What it means and why it matters, in one plain sentence. */
  explain: string;
  /** One line for whoever owns the client, and one for whoever owns the server and infrastructure. */
  advice: { client: string; server: string };
}

/** The field report's rule for a resume that is not to be trusted. */
const REISSUE = 'Abandon the resume and re-issue the original request as a new idempotent call; a 200 OK on reconnect is no evidence of continuity.';
/** What stops a replica from inventing a replay. */
const AFFINITY = 'Route every request of a session to the replica that holds it (affinity on Mcp-Session-Id), or keep the event buffer in a store all replicas share; a replica without the buffer should answer 409, not invent events.';

/**
 * Every finding code: its severity, title, meaning and advice. The rules take a code's severity
 * from here, so no rule states one of its own.
 */
export const FINDINGS: Readonly<Record<FindingCode, Readonly<FindingInfo>>> = Object.freeze({
  'resume-seq-gap': {
    severity: 'error',
    title: 'Application sequence jumped across a resume',
    explain: 'The replay skipped application-sequence values, so the replica that answered had lost the buffer and invented what it sent; the result the client accepts may be fabricated.',
    advice: { client: REISSUE, server: AFFINITY },
  },
  'resume-seq-regress': {
    severity: 'error',
    title: 'Replay started before the last value seen',
    explain: 'The replay started at or before a value the client already had, so it repeats work the client already processed and may apply it twice.',
    advice: { client: REISSUE, server: 'Replay strictly after Last-Event-ID: the buffer must be looked up by the id the client sent, not by the stream or the session.' },
  },
  'resume-id-gap': {
    severity: 'error',
    title: 'Event ids skipped across a resume',
    explain: 'Integer event ids skipped across the resume and no other stream of the session used the missing ones, so events were lost between the reset and the replay.',
    advice: { client: REISSUE, server: AFFINITY },
  },
  'resume-terminal-unproven': {
    severity: 'error',
    title: 'Final result right after a resume, unproven',
    explain: 'A final result arrived right after Last-Event-ID with no progress before it, which is what a replica without the buffer sends; nothing proves the original call really finished.',
    advice: { client: `Do not trust a terminal event on a resumed stream unless it carries the original stream's sequence. ${REISSUE}`, server: AFFINITY },
  },
  'resume-token-mismatch': {
    severity: 'error',
    title: 'Resume token differs from the buffer head',
    explain: 'The server echoed a resume token that differs from the buffer head the client saw, so the replay comes from another buffer than the one the stream was using.',
    advice: { client: REISSUE, server: AFFINITY },
  },
  'resume-cross-stream': {
    severity: 'error',
    title: "Replay carries another stream's replies",
    explain: 'The replay carried replies that belong to another stream, so the server mixed up buffers and the client may route a result to the wrong request.',
    advice: { client: REISSUE, server: 'Key the event buffer by stream: a resume replays only the stream that delivered Last-Event-ID.' },
  },
  'resume-missing-last-event-id': {
    severity: 'error',
    title: 'Reconnect without Last-Event-ID',
    explain: 'The client reconnected without sending Last-Event-ID after it had received event ids, so the server cannot replay what was lost and those events are gone for good.',
    advice: { client: 'Send the last event id received as Last-Event-ID when reconnecting, or re-issue the call.', server: 'Nothing to fix on the server for this one; it cannot replay what the client does not ask for.' },
  },
  'resume-unverifiable': {
    severity: 'warning',
    title: 'Resume cannot be verified',
    explain: 'Nothing in the replay (no app_seq, no progress, no resume token) shows that it continues the interrupted stream, so a synthesized replay would look exactly like this.',
    advice: { client: 'Treat the replay as a new stream and rely on idempotency keys.', server: 'Carry an application sequence (app_seq in _meta, or progress) or a resume_token on every event, so a client can prove continuity.' },
  },
  'resume-empty': {
    severity: 'warning',
    title: 'Resume answered with no events',
    explain: 'The server accepted the resume but sent no events (only keep-alives, or it closed at once), so whatever was in flight is still missing.',
    advice: { client: 'Re-issue the call rather than wait for a replay that is not coming.', server: 'A replica that cannot replay should answer 409 (or 404 for an unknown session), not an empty 200.' },
  },
  'resume-rejected': {
    severity: 'info',
    title: 'Resume refused',
    explain: 'The server refused the resume (409 or 400), which is the honest answer from a replica without the buffer: the client knows to re-issue the call.',
    advice: { client: 'Re-issue the call as a new idempotent request.', server: 'This is the honest answer; affinity on Mcp-Session-Id, or a shared event store, would have let the resume succeed.' },
  },
  'session-expired': {
    severity: 'info',
    title: 'Session expired',
    explain: 'The server no longer knows the session (404), so the client must start a new session and re-issue its calls; nothing was silently lost.',
    advice: { client: 'Start a new session and re-issue the calls that were in flight.', server: 'If sessions expire sooner than clients reconnect, keep them longer or share them across replicas.' },
  },
  'resume-unknown-id': {
    severity: 'warning',
    title: 'Resume from an id never delivered',
    explain: 'The client resumed from an event id this session never delivered (as captured), so either the capture missed traffic or the client resumed from the wrong cursor.',
    advice: { client: 'Resume from the last id the client actually received.', server: 'A replica that does not know the id should answer 409, not replay from a guess.' },
  },
  'resume-on-stateless': {
    severity: 'warning',
    title: 'Last-Event-ID sent to a stateless server',
    explain: 'A Last-Event-ID was sent to a 2026-07-28 (stateless) server, which has no resumption: the client expects a replay that cannot come.',
    advice: { client: 'Do not resume against a stateless revision; re-issue the call.', server: 'Nothing to fix: the revision has no resumption.' },
  },
  'duplicate-event-id': {
    severity: 'error',
    title: 'Event id delivered twice',
    explain: 'The same event id was delivered twice in the session, so a replay re-sent an event and the client may process the same message twice.',
    advice: { client: 'Drop events whose id was already processed.', server: 'Event ids must be unique in a session; replay strictly after Last-Event-ID.' },
  },
  'seq-regress': {
    severity: 'error',
    title: 'Sequence went backwards',
    explain: 'Progress must strictly increase, but it went down or repeated, so the stream mixes two runs of the work or replays old events.',
    advice: { client: 'Do not trust the stream past this point; re-issue the call.', server: 'Send each progress value once, increasing; a replay must not restart the count.' },
  },
  'seq-gap': {
    severity: 'warning',
    title: 'Sequence skipped inside a stream',
    explain: 'The application sequence skipped values inside a live stream, so messages were lost on the way even without a resume.',
    advice: { client: 'Treat the missing messages as lost; re-issue if they matter.', server: 'Find where messages are dropped between the tool and the stream (a full buffer, a filter).' },
  },
  'malformed-event': {
    severity: 'warning',
    title: 'Event is not a JSON-RPC message',
    explain: 'The event data is not a JSON-RPC message (or not valid UTF-8), so a client will fail to parse it or skip it without telling anyone.',
    advice: { client: 'Report unparsable events instead of skipping them.', server: 'Send one JSON-RPC message (or batch) per event, as UTF-8.' },
  },
  'result-lost': {
    severity: 'error',
    title: 'Tool result lost',
    explain: "A request's stream ended without its response and no resume or re-issued call delivered one, so the tool result is lost and the client may never report it.",
    advice: { client: 'Resume with Last-Event-ID, or re-issue the call, whenever a stream ends before its response.', server: AFFINITY },
  },
  'body-not-captured': {
    severity: 'info',
    escalated: { severity: 'warning', when: 'a resume verdict or a lost result depends on the missing body' },
    title: 'Body not captured',
    explain: 'The recorder did not keep this stream\'s body, so its events are unknown: nothing is concluded from their absence.',
    advice: { client: "Capture the body: the panel's live capture, or mcp-stream-lens proxy in front of the server, records every event.", server: 'Nothing to fix on the server: this is a limit of the recorder.' },
  },
  'no-mcp-traffic': {
    severity: 'warning',
    title: 'No MCP traffic',
    explain: 'The input holds no MCP traffic at all, so there was nothing to check: the capture may have missed it.',
    advice: { client: 'Check that the capture ran while the MCP client talked to its server (and kept response bodies).', server: 'Nothing to fix on the server.' },
  },
});

/** How much of an untrusted value a finding's message quotes. */
const QUOTE_CHARS = 60;

/** Quotes untrusted text for a one-line message: JSON-escaped and cut short. */
export function quote(text: string): string {
  const cut = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
  return JSON.stringify(cut);
}

/** The values a rule compared, for a finding's evidence. */
export type Values = Pick<FindingEvidence, 'expected' | 'got' | 'lastSeen'>;

/**
 * A finding of `code` at event `event` of `stream` (null: the stream as a whole), with its
 * severity from {@link FINDINGS} (escalated when asked) and its evidence: the values compared,
 * the input entry the stream came from, and when the event arrived (the request's start for a
 * whole stream). `time` is the event's when the table does not hold it yet.
 */
export function finding(code: FindingCode, stream: StreamState, event: number | null, message: string, values?: Values, time?: number, escalate = false): Finding {
  const info = FINDINGS[code];
  const severity = escalate && info.escalated ? info.escalated.severity : info.severity;
  const evidence: FindingEvidence = { ...values };
  if (stream.request.entry !== undefined) evidence.entry = stream.request.entry;
  const at = time ?? (event === null ? stream.request.startTime : stream.events.timeAt(event));
  if (Number.isFinite(at)) evidence.time = at;
  return { code, severity, stream: stream.index, event, message, evidence };
}
