import type { FindingCode } from '../../core/index';

/** The field report's operational rule, quoted wherever a resume is not to be trusted. */
export const REISSUE_RULE = 'Abandon the resume and re-issue the original request as a new idempotent call; a 200 OK on reconnect is no evidence of continuity.';

/**
 * What each finding means and why it matters, in one plain sentence (plus the rule where it
 * applies). The finding's own message carries the evidence: ids and values.
 */
export const EXPLANATIONS: Record<FindingCode, string> = {
  'resume-seq-gap': `The replay skipped application-sequence values, so the replica that answered had lost the buffer and invented what it sent; the tool result the client accepts may be fabricated. ${REISSUE_RULE}`,
  'resume-seq-regress': `The replay started at or before a value the client already had, so it repeats work the client already processed and may apply it twice. ${REISSUE_RULE}`,
  'resume-id-gap': `Integer event ids skipped across the resume and no other stream of the session used the missing ones, so events were lost between the reset and the replay. ${REISSUE_RULE}`,
  'resume-terminal-unproven': `A final result arrived right after Last-Event-ID with no progress before it, which is what a replica without the buffer sends; nothing proves the original call really finished. ${REISSUE_RULE}`,
  'resume-token-mismatch': `The server echoed a resume token that differs from the buffer head the client saw, so the replay comes from another buffer than the one the stream was using. ${REISSUE_RULE}`,
  'resume-cross-stream': `The replay carried replies that belong to another stream, so the server mixed up buffers and the client may route a result to the wrong request. ${REISSUE_RULE}`,
  'resume-missing-last-event-id': 'The client reconnected without sending Last-Event-ID after it had received event ids, so the server cannot replay what was lost and those events are gone for good.',
  'resume-unverifiable': 'Nothing in the replay (no app_seq, no progress, no resume token) can show that it continues the interrupted stream, so a synthesized replay would look exactly like this; treat it as a new stream and rely on idempotency keys.',
  'resume-empty': 'The server accepted the resume but sent no events (only keep-alives, or it closed at once), so whatever was in flight is still missing; the client should re-issue rather than wait.',
  'resume-rejected': 'The server refused the resume (409 or 400), which is the honest answer from a replica without the buffer: the client knows to re-issue the call.',
  'session-expired': 'The server no longer knows the session (404), so the client must start a new session and re-issue its calls; nothing was silently lost.',
  'resume-unknown-id': 'The client resumed from an event id this session never delivered, so either the capture missed traffic or the client resumed from the wrong cursor.',
  'resume-on-stateless': 'A Last-Event-ID was sent to a 2026-07-28 (stateless) server, which has no resumption: the client expects a replay that cannot come.',
  'duplicate-event-id': 'The same event id was delivered twice in the session, so a replay re-sent an event and the client may process the same message twice.',
  'seq-regress': 'Progress must strictly increase, but it went down or repeated, so the stream mixes two runs of the work or replays old events.',
  'seq-gap': 'The application sequence skipped values inside a live stream, so messages were lost on the way even without a resume.',
  'malformed-event': 'The event data is not a JSON-RPC message (or not valid UTF-8), so a client will fail to parse it or skip it without telling anyone.',
  'result-lost': 'A request\'s stream ended without its response and no resume or re-issued call delivered one, so the tool result is lost and the client may never report it.',
};

export const explain = (code: FindingCode): string => EXPLANATIONS[code] ?? 'A finding of the analysis.';
